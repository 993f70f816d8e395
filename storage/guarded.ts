// An ObjectStore whose every call is bounded in time, and (for the chaos suite only) whose writes fail at a given rate.
import { within } from "../contracts/rpc.js";
import { faultInjector } from "../queues/faults.js";
import { TIMEOUTS } from "../contracts/timeouts.js";
import type { ObjectStore, StoredObject } from "./store.js";

export interface StoreGuards {
  timeoutMs?: number;
  /** Share of puts and deletes that fail before writing (0–1): a test variable, never set in a deployment. */
  writeFailureRate?: number;
  random?: () => number;
}

export function guardedStore(store: ObjectStore, guards: StoreGuards = {}): ObjectStore {
  const ms = guards.timeoutMs ?? TIMEOUTS.storageMs;
  const bound = <T>(call: Promise<T>, what: string) => within(call, AbortSignal.timeout(ms), `the bucket (${what})`);
  const refuse = faultInjector(guards.writeFailureRate, guards.random);
  const inject = (what: string) => refuse(`the bucket refused ${what}`);
  // Not a spread: that would read `body`, a getter that on S3 takes the object's one stream and leaves nothing for bytes().
  const object = (found: StoredObject): StoredObject => ({
    key: found.key,
    size: found.size,
    get body() {
      return found.body;
    },
    text: () => bound(found.text(), `reading ${found.key}`),
    json: <T>() => bound(found.json<T>(), `reading ${found.key}`),
    bytes: () => bound(found.bytes(), `reading ${found.key}`),
  });
  return {
    async put(key, body, options) {
      inject(`put ${key}`);
      // A streamed body is a caller's upload: its pace is theirs, so its bound is an upload's, not a bucket call's.
      if (body instanceof ReadableStream) {
        return within(store.put(key, body, options), AbortSignal.timeout(guards.timeoutMs ?? TIMEOUTS.streamedPutMs), `the bucket (put ${key})`);
      }
      return bound(store.put(key, body, options), `put ${key}`);
    },
    async get(key) {
      const found = await bound(store.get(key), `get ${key}`);
      return found ? object(found) : null;
    },
    list: (options) => bound(store.list(options), `list ${options.prefix}`),
    async delete(keys) {
      inject("delete");
      return bound(store.delete(keys), "delete");
    },
  };
}

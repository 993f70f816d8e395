// The job ledger on Cloudflare: one Job Durable Object per job (functions/writer/job.ts), each call bounded in time, and its
// results read back from the bucket by the locations it keeps.
import type { JobLedger, JobNamespace, JobRpc, ResultKind } from "../contracts/jobs.js";
import { boundedJob } from "../http/bounded.js";
import { jobKeys } from "../contracts/messages.js";
import type { ObjectStore } from "../storage/store.js";
import { indexOwner } from "./owners.js";

/** A job's result bytes in task-then-repeat order, a page of locations at a time; a small cache of objects bounds memory. */
export async function* resultBytes(store: ObjectStore, job: Pick<JobRpc, "locations">, kind: ResultKind): AsyncGenerator<Uint8Array> {
  const cache = new Map<string, Uint8Array>();
  let after: [number, number] | undefined;
  do {
    const page = await job.locations(kind, after);
    for (const at of page.locations) {
      let bytes = cache.get(at.object_key);
      if (!bytes) {
        const object = await store.get(at.object_key);
        if (!object) throw new Error(`result object ${at.object_key} is missing`);
        bytes = await object.bytes();
        if (cache.size >= 16) cache.delete(cache.keys().next().value!);
        cache.set(at.object_key, bytes);
      }
      yield bytes.subarray(at.offset, at.offset + at.length);
    }
    after = page.next;
  } while (after);
}

export interface ObjectLedger extends JobLedger {
  /** The job's own Durable Object (bounded calls): the views only it has (locations, summary, browse). */
  job(id: string): JobRpc;
}

export function objectLedger(jobs: JobNamespace, store: ObjectStore): ObjectLedger {
  const job = (id: string) => boundedJob(jobs.get(jobs.idFromName(id)));
  return {
    job,
    async create(config) {
      await indexOwner(store, config);
      // The listing's entry (GET /v1/jobs pages through these); the configuration itself lives in the Job object.
      await store.put(jobKeys.manifest(config.id), JSON.stringify({ id: config.id, created_at: config.created_at, environment: config.environment ?? null }));
      return job(config.id).create(config);
    },
    info: (id) => job(id).info(),
    wanted: (id) => job(id).wanted(),
    started: (id, count) => job(id).started(count),
    record: (id, entries) => job(id).record(entries),
    abandon: (id, scope, failure) => job(id).abandon(scope, failure),
    cancel: (id) => job(id).cancel(),
    resume: (id, options) => job(id).resume(options),
    async *lines(id, kind) {
      const decoder = new TextDecoder();
      for await (const bytes of resultBytes(store, job(id), kind)) yield decoder.decode(bytes);
    },
  };
}

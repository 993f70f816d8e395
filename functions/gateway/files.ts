// A tenant's uploads (`uploads/<token name>/<file>`): stored, listed and deleted under its own name only, within its bytes quota.
import { allows } from "../../contracts/tokens.js";
import { EdgegymError } from "../../protocol/index.js";
import { listAll, type ObjectStore } from "../../storage/store.js";
import { type Caller, callerOf, gateway } from "./caller.js";
import { gatewayPorts } from "./ports.js";
import { quotaExceeded, quotaFor } from "./quotas.js";

export const UPLOADS_PREFIX = "uploads/";
const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

function uploadKey(caller: Caller, name: string): string {
  return `${UPLOADS_PREFIX}${caller.name}/${name}`;
}

/** Whether a job of this caller may read its rows from `key`: its own uploads, or (admin) any object an operator put there. */
export function mayReadRows(caller: Caller, key: string): boolean {
  return allows(caller.scopes, "admin") || key.startsWith(`${UPLOADS_PREFIX}${caller.name}/`);
}

function fileName(name: string | undefined): string {
  if (!name || !FILE_NAME.test(name)) throw new EdgegymError(400, "invalid_file_name", "a file name is 1-200 of A-Z a-z 0-9 . _ - (not starting with . _ -)");
  return name;
}

/** Bytes of a tenant's uploads, but the one at `except` (the file an upload replaces). */
async function storedBytes(store: ObjectStore, caller: Caller, except?: string): Promise<number> {
  let total = 0;
  for await (const page of listAll(store, { prefix: `${UPLOADS_PREFIX}${caller.name}/` })) {
    for (const key of page.keys) {
      if (key === except) continue;
      const object = await store.get(key);
      if (!object) continue;
      total += object.size;
      await object.body.cancel();
    }
  }
  return total;
}

export const files = gateway.createApp();

/** PUT /v1/files/<name>: the body (JSONL rows) is stored as it streams in; the answer's `rows_key` names it to POST /v1/jobs. */
files.put("/:name", async (c) => {
  const name = fileName(c.req.param("name"));
  const length = c.req.header("content-length");
  // The bucket takes a stream of known length only: a chunked upload has none (the size cap has been checked already).
  if (!c.req.raw.body || length === undefined) throw new EdgegymError(411, "length_required", "an upload needs a Content-Length header and a body");
  const { caller, quota } = quotaFor(c);
  const key = uploadKey(caller, name);
  const store = gatewayPorts(c.env).store;
  // The bytes quota: the declared length (the body is held to it) before a byte is stored, then the total once stored (two
  // uploads at once may both have passed the first check): over it, this upload is removed and refused.
  if (quota.bytes !== undefined) {
    const used = (await storedBytes(store, caller, key)) + Number(length);
    if (used > quota.bytes) throw quotaExceeded(caller.name, "bytes", quota.bytes, used);
  }
  await store.put(key, c.req.raw.body, { contentType: "application/x-ndjson" });
  if (quota.bytes !== undefined) {
    const used = await storedBytes(store, caller);
    if (used > quota.bytes) {
      await store.delete(key);
      throw quotaExceeded(caller.name, "bytes", quota.bytes, used);
    }
  }
  return c.json({ object: "file", name, rows_key: key, bytes: Number(length) }, 201);
});

files.get("/", async (c) => {
  const prefix = `${UPLOADS_PREFIX}${callerOf(c).name}/`;
  const data: { object: "file"; name: string; rows_key: string }[] = [];
  for await (const page of listAll(gatewayPorts(c.env).store, { prefix })) {
    for (const key of page.keys) data.push({ object: "file", name: key.slice(prefix.length), rows_key: key });
  }
  return c.json({ object: "list", data });
});

files.delete("/:name", async (c) => {
  const key = uploadKey(callerOf(c), fileName(c.req.param("name")));
  await gatewayPorts(c.env).store.delete(key);
  return c.json({ object: "file", rows_key: key, deleted: true });
});

// Reading jobs: status, the scored JSONL in task-then-repeat order, failures, cancel, resume, list.
import type { Context } from "hono";
import { EdgegymError } from "../../protocol/index.js";
import { jobKeys, type ExpandMessage } from "../../queues/messages.js";
import { cloudflareQueue } from "../../queues/cloudflare.js";
import type { GatewayEnv } from "../bindings.js";
import type { JobRpc, ResultLocation } from "../writer/job-types.js";
import { CHUNK_ROWS } from "./jobs-create.js";

type C = Context<{ Bindings: GatewayEnv }>;

export function job(c: C): JobRpc {
  const id = c.req.param("id") ?? "";
  if (!/^job_[a-z0-9]+$/.test(id)) throw new EdgegymError(404, "unknown_job", `no job "${id}"`);
  return c.env.JOBS.get(c.env.JOBS.idFromName(id)) as unknown as JobRpc;
}

function missing(id: string): never {
  throw new EdgegymError(404, "unknown_job", `no job "${id}"`);
}

export async function jobStatus(c: C): Promise<Response> {
  return c.json((await job(c).info()) ?? missing(c.req.param("id") ?? ""));
}

/** Streams the lines in order; a small cache of result objects keeps memory bounded whatever the job's size. */
function streamLines(bucket: R2Bucket, locations: ResultLocation[]): ReadableStream<Uint8Array> {
  const cache = new Map<string, Uint8Array>();
  let next = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const at = locations[next++];
      if (!at) return controller.close();
      let bytes = cache.get(at.object_key);
      if (!bytes) {
        const object = await bucket.get(at.object_key);
        if (!object) return controller.error(new Error(`result object ${at.object_key} is missing`));
        bytes = new Uint8Array(await object.arrayBuffer());
        if (cache.size >= 16) cache.delete(cache.keys().next().value!);
        cache.set(at.object_key, bytes);
      }
      controller.enqueue(bytes.subarray(at.offset, at.offset + at.length));
    },
  });
}

export function jobResults(kind: "rollout" | "failure") {
  return async (c: C): Promise<Response> => {
    const stub = job(c);
    if (!(await stub.info())) missing(c.req.param("id") ?? "");
    const locations = await stub.locations(kind);
    return new Response(streamLines(c.env.BUCKET, locations), { headers: { "content-type": "application/x-ndjson" } });
  };
}

export async function cancelJob(c: C): Promise<Response> {
  return c.json((await job(c).cancel()) ?? missing(c.req.param("id") ?? ""));
}

/** Re-enqueues only the rollouts that have no result, chunk by chunk. */
export async function resumeJob(c: C): Promise<Response> {
  const resumed = (await job(c).resume()) ?? missing(c.req.param("id") ?? "");
  const { info, missing: wanted, tasks } = resumed;
  if (wanted.length === 0) return c.json({ ...info, resumed: 0 });
  // The chunks hold the accepted tasks in order, CHUNK_ROWS to a chunk.
  const position = new Map(tasks.map((task, i) => [task, i]));
  const byChunk = new Map<number, [number, number][]>();
  for (const pair of wanted) {
    const chunk = Math.floor((position.get(pair[0]) ?? 0) / CHUNK_ROWS);
    byChunk.set(chunk, [...(byChunk.get(chunk) ?? []), pair]);
  }
  await cloudflareQueue<ExpandMessage>(c.env.ROLLOUTS as Queue<ExpandMessage>).sendBatch(
    [...byChunk].map(([chunk, only]) => ({ body: { kind: "expand", job_id: info.id, chunk_key: jobKeys.inputsChunk(info.id, chunk), only, attempt: 2 } })),
  );
  return c.json({ ...info, resumed: wanted.length });
}

export async function listJobs(c: C): Promise<Response> {
  const listed = await c.env.BUCKET.list({ prefix: "jobs/", delimiter: "/" });
  const ids = listed.delimitedPrefixes.map((prefix) => prefix.slice("jobs/".length, -1)).filter((id) => id.startsWith("job_"));
  const infos = await Promise.all(ids.map((id) => (c.env.JOBS.get(c.env.JOBS.idFromName(id)) as unknown as JobRpc).info()));
  const jobs = infos.filter((info) => info !== null).sort((a, b) => b.created_at - a.created_at);
  return c.json({ object: "list", data: jobs });
}

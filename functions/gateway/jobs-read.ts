// Reading jobs: status, the scored JSONL in task-then-repeat order, failures, cancel, resume, list.
import type { Context } from "hono";
import { z } from "zod";
import type { JobInfo, JobRpc, ResultKind, ResultLocation } from "../../contracts/jobs.js";
import { within } from "../../contracts/rpc.js";
import { TIMEOUTS } from "../../contracts/timeouts.js";
import { raise } from "../../http/errors.js";
import { workerLogger } from "../../http/log.js";
import { allows } from "../../contracts/tokens.js";
import { markOpen, ownedIdPage, owns } from "../../ledger/index.js";
import { EdgegymError, parseOr400 } from "../../protocol/index.js";
import type { ObjectStore } from "../../storage/store.js";
import { JOB_ID, jobIdPage } from "./job-list.js";
import { followLines } from "./jobs-follow.js";
import { callerOf, type GatewayContext } from "./caller.js";
import { gatewayPorts } from "./ports.js";
import { resumeQuotas } from "./quotas.js";

type C = Context<GatewayContext>;

/** The answer for a job that does not exist, or that the caller may not see: one text, so ids cannot be probed. */
export function missing(id: string): never {
  throw new EdgegymError(404, "unknown_job", `no job "${id}"`);
}

/**
 * The job the path names, if the caller may see it: its owner's, or admin's. Another tenant's job (or one with no owner,
 * made before owners were recorded) is answered exactly as a job that does not exist, so ids cannot be probed.
 */
export async function job(c: C): Promise<JobRpc> {
  const id = c.req.param("id") ?? "";
  if (!JOB_ID.test(id)) missing(id);
  const caller = callerOf(c);
  const ports = gatewayPorts(c.env);
  if (!allows(caller.scopes, "admin") && !(await owns(ports.store, caller.name, id))) missing(id);
  return ports.job(id);
}

export async function jobStatus(c: C): Promise<Response> {
  return c.json((await (await job(c)).info()) ?? missing(c.req.param("id") ?? ""));
}

/** Streams a job's lines in order, a page of locations at a time; a small cache of result objects keeps memory bounded. */
function streamLines(store: ObjectStore, stub: JobRpc, kind: ResultKind): ReadableStream<Uint8Array> {
  const cache = new Map<string, Uint8Array>();
  let page: ResultLocation[] = [];
  let next: [number, number] | undefined;
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (page.length === 0) {
        if (started && !next) return controller.close();
        const answer = await stub.locations(kind, next);
        started = true;
        page = answer.locations;
        next = answer.next;
        if (page.length === 0) return controller.close();
      }
      const at = page.shift()!;
      let bytes = cache.get(at.object_key);
      if (!bytes) {
        const object = await store.get(at.object_key);
        if (!object) return controller.error(new Error(`result object ${at.object_key} is missing`));
        bytes = await object.bytes();
        if (cache.size >= 16) cache.delete(cache.keys().next().value!);
        cache.set(at.object_key, bytes);
      }
      controller.enqueue(bytes.subarray(at.offset, at.offset + at.length));
    },
  });
}

const ResultsQuery = z.object({
  /** "true": the lines as they land, in the order recorded, until the job ends (otherwise: task-then-repeat order, as it stands). */
  follow: z.enum(["true", "false", "1", "0"]).optional(),
});

export function jobResults(kind: ResultKind) {
  return async (c: C): Promise<Response> => {
    const query = parseOr400(ResultsQuery, c.req.query(), "results query");
    const stub = await job(c);
    const info = await stub.info();
    if (!info) missing(c.req.param("id") ?? "");
    const store = gatewayPorts(c.env).store;
    const follow = query.follow === "true" || query.follow === "1";
    const body = follow ? followLines(store, stub, info.id, kind) : streamLines(store, stub, kind);
    return new Response(body, { headers: { "content-type": "application/x-ndjson" } });
  };
}

/**
 * Cancels the job, then has the rollout runners drop its rollouts not yet started, so none starts after this answers (those
 * running finish). Should the agent not answer, the runners still stop within their check interval (functions/agent/runner.ts).
 */
export async function cancelJob(c: C): Promise<Response> {
  const info = (await (await job(c)).cancel()) ?? missing(c.req.param("id") ?? "");
  if (info.status === "cancelled") {
    try {
      await within(c.env.AGENT.cancelled(info.id), AbortSignal.timeout(TIMEOUTS.cancelDropMs), "the agent (cancelled)");
    } catch (error) {
      workerLogger("gateway", gatewayPorts(c.env).config.LOG_LEVEL).warn("the runners could not be told of a cancel; they stop on their next check", {
        job_id: info.id,
        outcome: "cancelled",
        error,
      });
    }
  }
  return c.json(info);
}

const ResumeQuery = z.strictObject({
  /** Only the rollouts with no record at all (crash recovery: a failure stays a failure); default false. */
  only_missing: z.enum(["true", "false", "1", "0"]).optional(),
});

/**
 * Re-enqueues only the rollouts that have no result (or, with only_missing, no record). The Job object sends the messages
 * and changes the job only once they are out: a resume that fails is a 503 naming what failed, the job left as it was.
 */
export async function resumeJob(c: C): Promise<Response> {
  const query = parseOr400(ResumeQuery, c.req.query(), "resume query");
  const onlyMissing = query.only_missing === "true" || query.only_missing === "1";
  const stub = await job(c);
  // The tenant's quotas count the job again while it runs (its open marker written before it may run).
  const before = await stub.info();
  if (before) await resumeQuotas(c, before);
  if (before?.owner) await markOpen(gatewayPorts(c.env).store, before.owner, before.id, before.counts.total);
  const result = (await stub.resume({ onlyMissing })) ?? missing(c.req.param("id") ?? "");
  if (!result.ok) raise(result.error);
  return c.json({ ...result.value.info, resumed: result.value.resumed });
}

const ListQuery = z.object({
  /** Jobs per page, newest first. */
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  /** The last id of the previous page. */
  after: z.string().regex(JOB_ID).optional(),
  /** Only this tenant's jobs (admin; any other caller sees its own jobs only, whatever this says). */
  owner: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/)
    .optional(),
});

/**
 * Newest first, a page at a time (OpenAI's list shape: `data`, `has_more`, `last_id`); every bucket page is read, never only
 * the first. A tenant's list pages through its owner index (ledger/owners.ts), so each page is full of its own jobs.
 */
export async function listJobs(c: C): Promise<Response> {
  const query = parseOr400(ListQuery, c.req.query(), "job list query");
  const ports = gatewayPorts(c.env);
  const caller = callerOf(c);
  const owner = allows(caller.scopes, "admin") ? query.owner : caller.name;
  const { ids, hasMore } = owner === undefined ? await jobIdPage(ports.store, query) : await ownedIdPage(ports.store, owner, query, JOB_ID);
  const infos = await Promise.all(ids.map((id) => ports.job(id).info()));
  const data = infos.filter((info): info is JobInfo => info !== null).sort((a, b) => b.created_at - a.created_at);
  const last = ids[ids.length - 1];
  return c.json({ object: "list", data, has_more: hasMore, ...(last ? { first_id: ids[0], last_id: last } : {}) });
}

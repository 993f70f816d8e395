// Queue message schemas: what travels on `rollouts` (work) and `results` (scored rollouts and failures).
import { z } from "zod";

/** Cloudflare Queues takes 128 KB a message; stay clear of it and send a pointer into the bucket instead. */
export const MAX_INLINE_BYTES = 100_000;
/** And 256 KB a batch (and 100 messages). */
export const MAX_BATCH_BYTES = 250_000;
export const MAX_BATCH_MESSAGES = 100;

/** Expand one chunk of a job's materialized inputs into rollout messages (fan-out happens on the queue, not in the request). */
export const ExpandMessage = z.object({
  kind: z.literal("expand"),
  job_id: z.string(),
  chunk_key: z.string(),
  /** Rollouts still wanted, as [task, repeat] pairs; absent means every repeat of every row in the chunk. */
  only: z.array(z.tuple([z.number().int(), z.number().int()])).optional(),
  attempt: z.number().int().positive().default(1),
});
export type ExpandMessage = z.infer<typeof ExpandMessage>;

export const RolloutMessage = z.object({
  kind: z.literal("rollout"),
  job_id: z.string(),
  task_index: z.number().int().nonnegative(),
  rollout_index: z.number().int().nonnegative(),
  /** Bumped by resume, so a rollout id's attempts can be told apart. */
  attempt: z.number().int().positive().default(1),
  /** The materialized row, inline when small… */
  row: z.record(z.string(), z.unknown()).optional(),
  /** …else the inputs chunk that holds it. */
  chunk_key: z.string().optional(),
});
export type RolloutMessage = z.infer<typeof RolloutMessage>;

export const WorkMessage = z.discriminatedUnion("kind", [ExpandMessage, RolloutMessage]);
export type WorkMessage = z.infer<typeof WorkMessage>;

export const ResultMessage = z.object({
  job_id: z.string(),
  rollout_id: z.string(),
  task_index: z.number().int().nonnegative(),
  rollout_index: z.number().int().nonnegative(),
  environment: z.string(),
  kind: z.enum(["rollout", "failure"]),
  /** The record inline when small, else a bucket key holding it. */
  record: z.record(z.string(), z.unknown()).optional(),
  record_key: z.string().optional(),
});
export type ResultMessage = z.infer<typeof ResultMessage>;

/** Rollout ids are deterministic: results, resume and dedupe all key on them. */
export function rolloutId(jobId: string, taskIndex: number, rolloutIndex: number): string {
  return `${jobId}:${taskIndex}:${rolloutIndex}`;
}

export const jobKeys = {
  prefix: (jobId: string) => `jobs/${jobId}/`,
  manifest: (jobId: string) => `jobs/${jobId}/job.json`,
  inputsChunk: (jobId: string, chunk: number) => `jobs/${jobId}/inputs/${String(chunk).padStart(6, "0")}.jsonl`,
  payload: (jobId: string, rolloutId: string) => `jobs/${jobId}/payloads/${rolloutId.replace(/:/g, "_")}.json`,
  results: (jobId: string, kind: "rollout" | "failure", name: string) => `jobs/${jobId}/${kind === "rollout" ? "rollouts" : "failures"}/${name}.jsonl`,
  metrics: (jobId: string) => `jobs/${jobId}/metrics.json`,
};

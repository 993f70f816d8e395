// Queue messages (work on `rollouts`, results on `results`) and the keys of a job's objects in the bucket.
import { z } from "zod";
import type { DatasetRow } from "../protocol/index.js";

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
  /** Runs of this rollout on earlier messages (a batch that ran it again itself, then handed it back): its attempt budget counts them. */
  tries: z.number().int().nonnegative().optional(),
  /** The materialized row, inline when small… (checked against the protocol when the job accepted it, not again) */
  row: z.custom<DatasetRow>((value) => typeof value === "object" && value !== null && !Array.isArray(value), "must be an object").optional(),
  /** …else the inputs chunk that holds it. */
  chunk_key: z.string().optional(),
});
export type RolloutMessage = z.infer<typeof RolloutMessage>;

export const WorkMessage = z.discriminatedUnion("kind", [ExpandMessage, RolloutMessage]);
export type WorkMessage = z.infer<typeof WorkMessage>;

/** What travels with a result: where it belongs and what the job's metrics need of it (its numbers, not its conversation). */
export const ResultHeader = z.object({
  job_id: z.string(),
  rollout_id: z.string(),
  task_index: z.number().int().nonnegative(),
  rollout_index: z.number().int().nonnegative(),
  environment: z.string(),
  kind: z.enum(["rollout", "failure"]),
  summary: z.record(z.string(), z.unknown()).default({}),
  /** Set when the record's line was too large for a message: the bucket key of an object holding it. */
  line_key: z.string().optional(),
});
export type ResultHeader = z.infer<typeof ResultHeader>;

/** A result on the `results` queue: its header, and the record's JSONL line (serialized once, by the agent). */
export interface ResultMessage {
  header: ResultHeader;
  /** Absent when the header names an object holding it (`line_key`). */
  line?: string;
}

/**
 * The wire form of a result is text: the header's JSON, a newline, then the line as it is. The line is never escaped
 * into another JSON document, so its size is exact and it is serialized once on its way to the bucket.
 */
export function encodeResult(message: ResultMessage): string {
  return `${JSON.stringify(message.header)}\n${message.line ?? ""}`;
}

/** Reads a result message; throws a ZodError (or SyntaxError) when the text is not one. */
export function decodeResult(text: string): ResultMessage {
  const at = text.indexOf("\n");
  const header = ResultHeader.parse(JSON.parse(at < 0 ? text : text.slice(0, at)));
  const line = at < 0 ? "" : text.slice(at + 1);
  return line ? { header, line } : { header };
}

/**
 * Rollout ids are deterministic: results, resume and dedupe all key on them. NeMo Gym's form (`<task>-<rollout>`,
 * letters, digits, `.`, `_`, `-`), prefixed by the job so two jobs never share one.
 */
export function rolloutId(jobId: string, taskIndex: number, rolloutIndex: number): string {
  return `${jobId}-${taskIndex}-${rolloutIndex}`;
}

export const JOBS_PREFIX = "jobs/";

export const jobKeys = {
  prefix: (jobId: string) => `${JOBS_PREFIX}${jobId}/`,
  manifest: (jobId: string) => `${JOBS_PREFIX}${jobId}/job.json`,
  inputsChunk: (jobId: string, chunk: number) => `${JOBS_PREFIX}${jobId}/inputs/${String(chunk).padStart(6, "0")}.jsonl`,
  payload: (jobId: string, rolloutId: string) => `${JOBS_PREFIX}${jobId}/payloads/${rolloutId.replace(/:/g, "_")}.json`,
  results: (jobId: string, kind: "rollout" | "failure", name: string) => `${JOBS_PREFIX}${jobId}/${kind === "rollout" ? "rollouts" : "failures"}/${name}.jsonl`,
  metrics: (jobId: string) => `${JOBS_PREFIX}${jobId}/metrics.json`,
};

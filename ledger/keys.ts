// Where a bucket job keeps what a Job Durable Object keeps on Cloudflare: one object per result, chunk seals, markers.
import { jobKeys } from "../contracts/messages.js";
import type { ResultKind } from "../contracts/jobs.js";

/** A chunk's number as it appears in keys, zero-padded so that key order is chunk order (as the inputs chunks are). */
export const chunkName = (chunk: number) => String(chunk).padStart(6, "0");

const RECORD = /\/(\d+)\/(\d+)\.(rollout|failure)\.txt$/;

export const ledgerKeys = {
  ...jobKeys,
  /** Every result of a job, one object each, under its inputs chunk. */
  records: (jobId: string) => `${jobKeys.prefix(jobId)}records/`,
  chunkRecords: (jobId: string, chunk: number) => `${jobKeys.prefix(jobId)}records/${chunkName(chunk)}/`,
  /** A task's results: what a writer lists after its own write (a few keys, however large the chunk). */
  taskRecords: (jobId: string, chunk: number, task: number) => `${jobKeys.prefix(jobId)}records/${chunkName(chunk)}/${task}/`,
  /** The one key of a (task, repeat)'s result of a kind: written only if absent, so the first writer's record is the record. */
  record: (jobId: string, chunk: number, kind: ResultKind, task: number, repeat: number) =>
    `${jobKeys.prefix(jobId)}records/${chunkName(chunk)}/${task}/${repeat}.${kind}.txt`,
  /** Written when every repeat of a task has a result: a chunk is complete when all its tasks have one. */
  taskDone: (jobId: string, chunk: number, task: number) => `${jobKeys.prefix(jobId)}tasks/${chunkName(chunk)}/${task}`,
  tasksDone: (jobId: string, chunk: number) => `${jobKeys.prefix(jobId)}tasks/${chunkName(chunk)}/`,
  /** Written when a chunk's results are all in and assembled: its counts and the summaries the metrics need. */
  seal: (jobId: string, chunk: number) => `${jobKeys.prefix(jobId)}chunks/${chunkName(chunk)}.json`,
  seals: (jobId: string) => `${jobKeys.prefix(jobId)}chunks/`,
  /** A chunk's assembled JSONL, ordered by task then repeat: the same folders as the Cloudflare writer's results objects. */
  assembled: (jobId: string, kind: ResultKind, chunk: number) => jobKeys.results(jobId, kind, chunkName(chunk)),
  cancelled: (jobId: string) => `${jobKeys.prefix(jobId)}cancelled`,
  /** Written last, once every chunk is sealed and metrics.json is written: the job's final counts. */
  completed: (jobId: string) => `${jobKeys.prefix(jobId)}completed.json`,
};

/** The kind, task and repeat a record key names; undefined for any other key. */
export function parseRecordKey(key: string): { kind: ResultKind; task: number; repeat: number } | undefined {
  const match = RECORD.exec(key);
  if (!match) return undefined;
  return { kind: match[3] as ResultKind, task: Number(match[1]), repeat: Number(match[2]) };
}

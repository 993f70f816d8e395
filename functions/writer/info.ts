// A job as the API shows it (JobInfo): from the Job object's metadata, its results table and, once complete, the bucket's metrics.
import type { WriterConfig } from "../../contracts/config.js";
import type { JobConfig, JobInfo, JobStatus } from "../../contracts/jobs.js";
import { jobKeys } from "../../contracts/messages.js";
import type { AggregateMetrics } from "../../protocol/index.js";
import type { ObjectStore } from "../../storage/store.js";
import { type StallState, stallOf } from "./stall.js";
import type { JobTables } from "./tables.js";

/** What the Job object keeps of its job in SQLite (one row). */
export interface Meta extends StallState {
  config: JobConfig;
  status: JobStatus;
  started: number;
  /** Results recorded so far, by kind: counted as they arrive, never by scanning. */
  done: number;
  failed: number;
  completed_at?: number;
}

export async function describeJob(meta: Meta, tables: JobTables, store: ObjectStore, config: WriterConfig): Promise<JobInfo> {
  const { config: job } = meta;
  const total = job.tasks.length * job.num_repeats;
  const { done, failed } = meta;
  const open = Math.max(0, total - done - failed);
  const running = meta.status === "running" ? Math.min(open, Math.max(0, meta.started - done - failed)) : 0;
  const stalled = meta.status === "running" ? stallOf(meta, job.created_at, config) : undefined;
  const info: JobInfo = {
    id: job.id,
    status: meta.status,
    ...(job.owner ? { owner: job.owner } : {}),
    ...(job.environment ? { environment: job.environment } : {}),
    num_repeats: job.num_repeats,
    tasks: job.tasks.length,
    counts: {
      total,
      queued: meta.status === "running" ? open - running : 0,
      running,
      done,
      failed,
      failed_by_class: tables.failureClasses(),
    },
    progress: total === 0 ? 1 : (done + failed) / total,
    created_at: job.created_at,
    ...(meta.completed_at ? { completed_at: meta.completed_at } : {}),
    elapsed_seconds: ((meta.completed_at ?? Date.now()) - job.created_at) / 1000,
    ...(job.skipped_lines?.length ? { skipped_lines: job.skipped_lines } : {}),
    ...(job.policy_version === undefined ? {} : { policy_version: job.policy_version }),
    ...(stalled ? { stalled } : {}),
    ...(meta.heals ? { heals: meta.heals } : {}),
    ...(meta.stalls?.length ? { stalls: meta.stalls } : {}),
  };
  if (meta.status === "completed") {
    const stored = await store.get(jobKeys.metrics(job.id));
    if (stored) info.metrics = await stored.json<Record<string, AggregateMetrics>>();
  }
  return info;
}

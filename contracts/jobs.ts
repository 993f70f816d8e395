// The Job Durable Object's calls and the shapes it trades in: a job's configuration, status, results and their places.
import type { AggregateMetrics } from "../protocol/index.js";
import type { BrowsePage, BrowseQuery, JobSummary, SummaryOptions } from "./job-views.js";
import type { ModelChoice, ObjectNamespace } from "./rpc.js";

export interface SkippedLine {
  line: number;
  field: string;
  message: string;
}

export interface JobConfig {
  id: string;
  /** The environment every row goes to; absent when each row names its own through agent_ref. */
  environment?: string;
  num_repeats: number;
  /** Task indices of the rows accepted (a skipped invalid line has none). */
  tasks: number[];
  chunk_keys: string[];
  created_at: number;
  skipped_lines?: SkippedLine[];
  /** The policy model and token ids the job's caller asked for (every rollout of the job uses them). */
  model?: ModelChoice;
}

export type JobStatus = "running" | "completed" | "cancelled";

export interface JobCounts {
  total: number;
  queued: number;
  running: number;
  done: number;
  failed: number;
}

export interface JobInfo {
  id: string;
  status: JobStatus;
  environment?: string;
  num_repeats: number;
  tasks: number;
  counts: JobCounts;
  /** Finished share of the rollouts, 0..1. */
  progress: number;
  created_at: number;
  completed_at?: number;
  elapsed_seconds: number;
  skipped_lines?: SkippedLine[];
  /** Per environment, once the job has completed. */
  metrics?: Record<string, AggregateMetrics>;
}

export type ResultKind = "rollout" | "failure";

/** One finished rollout (or failure) on its way into the job's JSONL. */
export interface ResultEntry {
  rollout_id: string;
  kind: ResultKind;
  task_index: number;
  rollout_index: number;
  environment: string;
  /** The JSONL line to store, serialized once by the agent. */
  line: string;
  /** What metrics need of a scored rollout: its numbers, not its conversation (empty for a failure). */
  summary: Record<string, unknown>;
}

/** Where a result's line sits: a byte range of one results object. */
export interface ResultLocation {
  object_key: string;
  offset: number;
  length: number;
  task_index: number;
  rollout_index: number;
}

/** A page of locations in task-then-repeat order; `next` is the cursor of the following page, if any. */
export interface LocationPage {
  locations: ResultLocation[];
  next?: [number, number];
}

export interface ResumePlan {
  info: JobInfo;
  /** The (task, repeat) pairs without a scored rollout, to run again. */
  missing: [number, number][];
  tasks: number[];
}

export interface JobRpc {
  create(config: JobConfig): Promise<JobInfo>;
  info(): Promise<JobInfo | null>;
  /** The agent reports rollouts it starts and learns the job's repeats; null means cancelled (or unknown): drop the work. */
  started(count: number): Promise<{ numRepeats: number; model?: ModelChoice } | null>;
  record(entries: ResultEntry[]): Promise<{ written: number; duplicates: number }>;
  cancel(): Promise<JobInfo | null>;
  resume(): Promise<ResumePlan | null>;
  /** One page of result locations after `after` (a task, repeat pair), in order. */
  locations(kind: ResultKind, after?: [number, number], limit?: number): Promise<LocationPage>;
  /** The results so far as distributions and tallies (the dashboard's view); null for an unknown job. */
  summary(options?: SummaryOptions): Promise<JobSummary | null>;
  /** A page of the results matching a filter, in task-then-repeat order; null for an unknown job. */
  browse(query: BrowseQuery): Promise<BrowsePage | null>;
}

export type JobNamespace = ObjectNamespace<JobRpc>;

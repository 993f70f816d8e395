// The Job Durable Object's RPC surface and the shapes it trades in, for the gateway, agent and writer.
import type { AggregateMetrics } from "../../environments/sdk/metrics.js";

export interface JobConfig {
  id: string;
  /** The environment every row goes to; absent when each row names its own through agent_ref. */
  environment?: string;
  num_repeats: number;
  /** Task indices of the rows accepted (a skipped invalid line has none). */
  tasks: number[];
  chunk_keys: string[];
  created_at: number;
  skipped_lines?: { line: number; field: string; message: string }[];
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
  skipped_lines?: JobConfig["skipped_lines"];
  /** Per environment, once the job has completed. */
  metrics?: Record<string, AggregateMetrics>;
}

export interface ResultEntry {
  rollout_id: string;
  kind: "rollout" | "failure";
  task_index: number;
  rollout_index: number;
  environment: string;
  /** The JSONL line to store. */
  line: string;
  /** Numeric fields of the verify response (and usage), kept for metrics. */
  summary: Record<string, unknown>;
}

export interface ResultLocation {
  object_key: string;
  offset: number;
  length: number;
  task_index: number;
  rollout_index: number;
}

export interface JobRpc {
  create(config: JobConfig): Promise<JobInfo>;
  info(): Promise<JobInfo | null>;
  started(count: number): Promise<{ numRepeats: number } | null>;
  record(entries: ResultEntry[]): Promise<{ written: number; duplicates: number }>;
  cancel(): Promise<JobInfo | null>;
  resume(): Promise<{ info: JobInfo; missing: [number, number][]; tasks: number[] } | null>;
  locations(kind: "rollout" | "failure"): Promise<ResultLocation[]>;
}

// The Job Durable Object's calls and the shapes it trades in: a job's configuration, status, results and their places.
import type { AggregateMetrics } from "../protocol/index.js";
import type { FailureClass, FailureCounts } from "./failures.js";
import type { BrowsePage, BrowseQuery, JobSummary, SummaryOptions } from "./job-views.js";
import type { ModelChoice, ObjectNamespace, RpcResult } from "./rpc.js";

export interface SkippedLine {
  line: number;
  field: string;
  message: string;
}

export interface JobConfig {
  id: string;
  /** The token name (the tenant) that created the job: only it (and admin) sees and acts on the job. Absent on older jobs. */
  owner?: string;
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
  /** The trainer's policy version the job's rollouts are made with (its groups carry it on the feed). */
  policy_version?: number;
}

export type JobStatus = "running" | "completed" | "cancelled";

export interface JobCounts {
  total: number;
  queued: number;
  running: number;
  done: number;
  failed: number;
  /**
   * The failures by class (contracts/failures.ts); they add up to `failed`. The Job object counts them as they land; the
   * AWS path's ledger (no object sees every result) once the job completes, from its chunks' seals.
   */
  failed_by_class?: FailureCounts;
}

/** A running job that recorded nothing for longer than its stall time: since when, and how often it was healed. */
export interface JobStall {
  /** When the last result was recorded (or the job started, resumed or was healed), epoch ms. */
  since: number;
  /** Times the Job object re-enqueued what was missing, of at most `max_heals`. */
  heals: number;
  max_heals: number;
}

export interface JobInfo {
  id: string;
  status: JobStatus;
  /** The token name that created the job (absent on a job made before owners were recorded: admin alone sees it). */
  owner?: string;
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
  /** The policy version the job was tagged with at creation. */
  policy_version?: number;
  /** Present while the job is stalled (nothing recorded for its stall time); it heals itself a bounded number of times. */
  stalled?: JobStall;
  /** Times the job re-enqueued what was missing after a stall. */
  heals?: number;
  /** Each stall the job had (the latest 10): when, how many rollouts were missing, and what the Job object did. */
  stalls?: StallRecord[];
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

/** What a resume did: the rollouts it re-enqueued (none when nothing was missing), and the job as it is now. */
export interface Resumed {
  info: JobInfo;
  resumed: number;
}

/** Which rollouts a failure stands for: those of one inputs chunk (optionally only some pairs), or the listed pairs. */
export type RolloutScope = { chunk_key: string; only?: [number, number][] } | { pairs: [number, number][] };

export interface StallRecord {
  /** When the stall was found, epoch ms. */
  at: number;
  /** Rollouts without a record then. */
  missing: number;
  /** Re-enqueued them, or (its heals spent) recorded them as dead_letter failures. */
  action: "healed" | "gave_up";
}

/** A failure the Job object writes itself, for rollouts no agent will answer (a dead-lettered expand, a job that gave up healing). */
export interface Abandonment {
  failure_class: FailureClass;
  message: string;
}

export interface ResumeOptions {
  /** Re-enqueue only rollouts with no record at all, keeping the failures (crash recovery); default: failures run again too. */
  onlyMissing?: boolean;
}

/** What an agent needs to know of a job it runs work for. */
export interface JobWanted {
  numRepeats: number;
  model?: ModelChoice;
}

/** Which groups a consumer of the feed takes: after its cursor, at most `limit`, none older than `minVersion`. */
export interface GroupTake {
  /** Consumers sharing a cursor name share its position: a group goes to one of them only. */
  cursor: string;
  limit: number;
  /** Groups of a policy version below this are dropped (passed over and counted), not handed out. */
  minVersion?: number;
  /** Take nothing unless this many groups are ready (a full batch) or the job can complete no more. */
  atLeast?: number;
}

/** A group (every repeat of one task, each with its record) handed out by the feed. */
export interface FeedGroup {
  task_index: number;
  /** Its place in the order the job's groups completed (1, 2, …). */
  sequence: number;
  completed_at: number;
  /** Where each repeat's line sits, in repeat order: scored rollouts and failures alike. */
  locations: (ResultLocation & { kind: ResultKind })[];
}

export interface GroupPage {
  groups: FeedGroup[];
  /** Groups passed over by this take because their policy version was below minVersion. */
  dropped: number;
  /** Completed groups still after the cursor once this take is done. */
  pending: number;
  /** Groups not yet complete (a repeat without a result): what the job may still hand out. */
  incomplete: number;
  policy_version?: number;
  status: JobStatus;
}

export interface JobRpc {
  create(config: JobConfig): Promise<JobInfo>;
  info(): Promise<JobInfo | null>;
  /** Whether the job still wants its work (a read): its repeats and model, or null for a cancelled or unknown job (drop the work). */
  wanted(): Promise<JobWanted | null>;
  /** The agent reports rollouts it starts (counted as running) and learns what wanted() answers. */
  started(count: number): Promise<JobWanted | null>;
  record(entries: ResultEntry[]): Promise<{ written: number; duplicates: number }>;
  cancel(): Promise<JobInfo | null>;
  /**
   * Re-enqueues what is missing, then marks the job running. A resume that could not enqueue everything leaves the job as
   * it was (an error as data: RPC keeps only a thrown error's message); null for an unknown job.
   */
  resume(options?: ResumeOptions): Promise<RpcResult<Resumed> | null>;
  /** Writes a failure record for each rollout in the scope that has no result yet; answers how many it wrote. */
  abandon(scope: RolloutScope, failure: Abandonment): Promise<{ written: number }>;
  /** One page of result locations after `after` (a task, repeat pair), in order. */
  locations(kind: ResultKind, after?: [number, number], limit?: number): Promise<LocationPage>;
  /** The results so far as distributions and tallies (the dashboard's view); null for an unknown job. */
  summary(options?: SummaryOptions): Promise<JobSummary | null>;
  /** A page of the results matching a filter, in task-then-repeat order; null for an unknown job. */
  browse(query: BrowseQuery): Promise<BrowsePage | null>;
  /** Takes the next completed groups for a cursor (the async feed); each group goes to one take of a cursor only. */
  takeGroups(take: GroupTake): Promise<GroupPage | null>;
}

export type JobNamespace = ObjectNamespace<JobRpc>;

/**
 * A job's ledger, whatever keeps it: the Job Durable Object on Cloudflare (ledger/object-ledger.ts) or the bucket alone on
 * AWS (ledger/bucket-jobs.ts). Both pass one contract suite (tests/ledger/). Calls name the job first.
 */
export interface JobLedger {
  /** Creates the job (once: a second create of an id answers the job as it is). The caller then sends its expand messages. */
  create(config: JobConfig): Promise<JobInfo>;
  info(id: string): Promise<JobInfo | null>;
  /** Whether the job still wants its work (a read); null for a cancelled or unknown job. */
  wanted(id: string): Promise<JobWanted | null>;
  /** Rollouts an agent starts, counted as running where the ledger can count them; answers what wanted() answers. */
  started(id: string, count: number): Promise<JobWanted | null>;
  /** Records results exactly once per rollout id, whoever sends them again. */
  record(id: string, entries: ResultEntry[]): Promise<{ written: number; duplicates: number }>;
  /** A failure record for each rollout of the scope without a result yet (a dead letter, a stall given up on). */
  abandon(id: string, scope: RolloutScope, failure: Abandonment): Promise<{ written: number }>;
  cancel(id: string): Promise<JobInfo | null>;
  /** Re-enqueues what is missing and marks the job running; a resume that could not enqueue leaves the job as it was. */
  resume(id: string, options?: ResumeOptions): Promise<RpcResult<Resumed> | null>;
  /** The job's JSONL lines of a kind, in task-then-repeat order, a few at a time. */
  lines(id: string, kind: ResultKind): AsyncGenerator<string>;
}

/** Rows per inputs chunk: the unit the agent expands into rollout messages (chunk i holds accepted tasks i×100 … i×100+99). */
export const CHUNK_ROWS = 100;

/**
 * A new job id: time first (ids sort by creation), then randomness. With a tenant (the AWS path), the id carries it:
 * `job_<tenant>_<time><random>`, so an IAM policy names a tenant's keys by prefix (contracts/tenants.ts).
 */
export function newJobId(tenant?: string): string {
  return `job_${tenant ? `${tenant}_` : ""}${Date.now().toString(36)}${crypto.randomUUID().replace(/-/g, "").slice(0, 10)}`;
}

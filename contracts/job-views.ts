// What the dashboard reads of a job without downloading it: distributions, per-task pass rates, failures by class, a page of results.

/** One bar of a histogram: values in [from, to), the last bar closed at `to`. */
export interface HistogramBin {
  from: number;
  to: number;
  count: number;
}

export interface Histogram {
  count: number;
  min: number;
  max: number;
  mean: number;
  bins: HistogramBin[];
}

/** How one task fared over its repeats; `passed` counts the repeats whose reward reached the pass threshold. */
export interface TaskPassRate {
  task_index: number;
  environment: string;
  rollouts: number;
  passed: number;
  mean_reward: number;
}

export interface EnvironmentTally {
  environment: string;
  rollouts: number;
  failures: number;
  /** Null before the first scored rollout. */
  mean_reward: number | null;
}

export interface SummaryOptions {
  /** Only this environment's results (a mixed job has several). */
  environment?: string;
  /** Bars per histogram. */
  bins?: number;
  /** A repeat passes when its reward is at least this. */
  pass_threshold?: number;
  /** Tasks listed at most (in task order); `tasks_total` says how many there are. */
  task_limit?: number;
}

/** The results so far, reduced: what a person looks at to judge a job. */
export interface JobSummary {
  environments: EnvironmentTally[];
  /** Null while no rollout has a numeric reward. */
  reward: Histogram | null;
  /** One histogram per reward component (`reward_components` of the verify response). */
  components: Record<string, Histogram>;
  pass_threshold: number;
  /** The tasks' pass rates (passed / rollouts) as a distribution over tasks. */
  task_pass_rates: Histogram | null;
  tasks: TaskPassRate[];
  tasks_total: number;
  /** Failure records by class; `unknown` for a failure recorded without one. */
  failures: Record<string, number>;
}

export type BrowseKind = "rollout" | "failure" | "all";

/** A filter over a job's results and the page of it wanted. */
export interface BrowseQuery {
  kind: BrowseKind;
  environment?: string;
  /** Reward bounds, inclusive (they select scored rollouts only). */
  min_reward?: number;
  max_reward?: number;
  /** Selects failures of this class only. */
  failure_class?: string;
  offset: number;
  limit: number;
  /** Start the page at this (task, repeat), or the first match after it: `offset` is then where that is. */
  at?: [number, number];
}

/** One result in a page: where it is in the job and where its line is in the bucket. */
export interface BrowseEntry {
  rollout_id: string;
  kind: "rollout" | "failure";
  task_index: number;
  rollout_index: number;
  environment: string;
  reward: number | null;
  failure_class: string | null;
  object_key: string;
  offset: number;
  length: number;
}

/** One result as GET /v1/jobs/:id/records answers it: the entry without its bucket location, its place among the matches,
 * and its record when asked for (`records=true`). */
export type RecordEntry = Omit<BrowseEntry, "object_key" | "offset" | "length"> & { position: number; record?: Record<string, unknown> };

/** GET /v1/jobs/:id/records: a page of a job's results, OpenAI-style list. */
export interface RecordsPage {
  object: "list";
  total: number;
  offset: number;
  data: RecordEntry[];
}

export interface BrowsePage {
  /** Results matching the filter. */
  total: number;
  /** The position of the first entry among them. */
  offset: number;
  entries: BrowseEntry[];
}

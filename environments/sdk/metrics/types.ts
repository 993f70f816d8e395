// Shared types for NeMo Gym compatible aggregate metrics (/aggregate_metrics).

/** NeMo Gym's task/rollout key names (nemo_gym/global_config.py). */
export const TASK_INDEX_KEY = "_ng_task_index";
export const ROLLOUT_INDEX_KEY = "_ng_rollout_index";

/**
 * One (stripped) verify response as sent to /aggregate_metrics. Deliberately loose: any extra
 * numeric or boolean field becomes a metric column, anything else is carried along untouched.
 */
export type VerifyResult = Record<string, unknown> & {
  reward?: number | boolean | null;
  _ng_task_index?: number;
  _ng_rollout_index?: number;
  response?: { usage?: Record<string, unknown> | null; [key: string]: unknown } | null;
};

/** Response body of /aggregate_metrics (nemo_gym/config_types.py AggregateMetrics). */
export interface AggregateMetrics {
  group_level_metrics: Record<string, unknown>[];
  agent_metrics: Record<string, unknown>;
  key_metrics: Record<string, unknown>;
}

/** Scores of one rollout by name; booleans count as 0/1, other value types are ignored. */
export type ScoreFn = (rollout: VerifyResult) => Record<string, unknown>;

/** Output of passAtK: flat `{agg_mode}/{score_name}` numbers plus the per_sample_aggregate table. */
export type PassAtKMetrics = Record<string, number | Record<string, number[]>>;

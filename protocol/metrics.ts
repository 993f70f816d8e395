// The /aggregate_metrics contract: what goes in (verify responses) and what comes out (NeMo Gym's AggregateMetrics).

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

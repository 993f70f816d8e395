// Shared types for NeMo Gym compatible aggregate metrics (/aggregate_metrics).

export { ROLLOUT_INDEX_KEY, TASK_INDEX_KEY, type AggregateMetrics, type VerifyResult } from "../protocol/metrics.js";
import type { VerifyResult } from "../protocol/metrics.js";

/** Scores of one rollout by name; booleans count as 0/1, other value types are ignored. */
export type ScoreFn = (rollout: VerifyResult) => Record<string, unknown>;

/** Output of passAtK: flat `{agg_mode}/{score_name}` numbers plus the per_sample_aggregate table. */
export type PassAtKMetrics = Record<string, number | Record<string, number[]>>;

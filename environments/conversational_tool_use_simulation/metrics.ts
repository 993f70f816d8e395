// NeMo Gym's compute_metrics and get_key_metrics for conversational_tool_use_simulation: transfer and failure rates.
import type { VerifyResult } from "../../protocol/index.js";

const PREFIX = "conversational_tool_use";

/** compute_metrics: each rate over every rollout of every task (no metrics for none). */
export function conversationMetrics(tasks: VerifyResult[][]): Record<string, number> {
  const flat = tasks.flat() as Record<string, unknown>[];
  if (!flat.length) return {};
  const share = (test: (row: Record<string, unknown>) => boolean) => flat.filter(test).length / flat.length;
  const positive = (key: string) => (row: Record<string, unknown>) => Number(row[key] ?? 0) > 0;
  return {
    [`${PREFIX}/transfer_rate`]: share((row) => Boolean(row.transferred)),
    [`${PREFIX}/transfer_ground_truth_mismatch_rate`]: share((row) => Boolean(row.transfer_ground_truth_mismatch)),
    [`${PREFIX}/transfer_mismatch_judge_skip_rate`]: share((row) => Boolean(row.judge_skipped_for_transfer_mismatch)),
    [`${PREFIX}/tool_schema_failure_rate`]: share(positive("num_tool_schema_failures")),
    [`${PREFIX}/user_failure_rate`]: share(positive("num_user_failures")),
    [`${PREFIX}/agent_failure_rate`]: share(positive("num_agent_failures")),
    [`${PREFIX}/tool_failure_rate`]: share(positive("num_tool_failures")),
  };
}

const KEY_METRICS = [
  "mean/reward",
  "reward/mean",
  `${PREFIX}/transfer_rate`,
  `${PREFIX}/transfer_ground_truth_mismatch_rate`,
  `${PREFIX}/transfer_mismatch_judge_skip_rate`,
  `${PREFIX}/tool_schema_failure_rate`,
  `${PREFIX}/user_failure_rate`,
  `${PREFIX}/agent_failure_rate`,
  `${PREFIX}/tool_failure_rate`,
];

/** get_key_metrics: the headline metrics present, in NeMo Gym's order. */
export function conversationKeyMetrics(metrics: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(KEY_METRICS.filter((key) => key in metrics).map((key) => [key, metrics[key]]));
}

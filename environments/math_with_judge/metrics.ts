// NeMo Gym's math_with_judge metric overrides: pass@k and majority@k per score, and its headline selection.
import { highestKMetrics, passAtK, type VerifyResult } from "../../metrics/index.js";

/** _math_score_fn: the symbolic score always, the judged reward when the judge was asked. */
function mathScores(rollout: VerifyResult): Record<string, unknown> {
  const scores: Record<string, unknown> = {};
  if ("library_reward" in rollout) scores.symbolic_accuracy = rollout.library_reward;
  if (rollout.judge_evaluations !== undefined && rollout.judge_evaluations !== null) scores.judge_accuracy = rollout.reward;
  return scores;
}

/** compute_metrics: compute_pass_majority_metrics over the extracted answers (no per-sample std, which NeMo Gym adds elsewhere). */
export function mathMetrics(tasks: VerifyResult[][]): Record<string, unknown> {
  return passAtK(tasks, { scoreFn: mathScores, answerKey: "extracted_answer", avgSampleStdDev: false });
}

/**
 * get_key_metrics: token means, and pass@1[avg-of-k], pass@k and majority@k at the largest k (no no_answer
 * for the last two). The SDK has no hook for it yet; aggregate_metrics uses its default selection meanwhile.
 */
export function mathKeyMetrics(agentMetrics: Record<string, unknown>): Record<string, unknown> {
  const key: Record<string, unknown> = {};
  for (const name of ["mean/input_tokens", "mean/output_tokens"]) if (name in agentMetrics) key[name] = agentMetrics[name];
  Object.assign(key, highestKMetrics(agentMetrics, "pass@1[avg-of-{k}]"));
  Object.assign(key, highestKMetrics(agentMetrics, "pass@{k}", { excludeNames: ["no_answer"] }));
  Object.assign(key, highestKMetrics(agentMetrics, "majority@{k}", { excludeNames: ["no_answer"] }));
  return key;
}

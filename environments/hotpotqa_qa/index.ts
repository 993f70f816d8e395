// Port of NeMo Gym's hotpotqa_qa: the JSON answer scored by SQuAD EM/F1 and alternative-aware substring matches.
import { defineEnvironment, passAtK, z } from "../sdk/index.js";
import { gtAlternatives, isCorrect, isCorrectStrict, shouldRemove } from "./alternatives.js";
import { answerExactMatch, answerF1Score, parseGeneration } from "./scoring.js";

const Task = z.looseObject({ expected_answer: z.string() });

/** The four score channels NeMo Gym's `_hotpotqa_score_fn` reads from a verify response. */
const CHANNELS = ["answer_em", "answer_f1", "is_correct", "is_correct_strict"] as const;
const scoreFn = (r: Record<string, unknown>) => {
  const scores: Record<string, number> = {};
  for (const key of CHANNELS) if (key in r) scores[key] = Number(r[key]);
  return scores;
};

export default defineEnvironment({
  name: "hotpotqa_qa",
  description: "Short-answer QA (HotpotQA): reward is the strict alternative-aware substring match of the JSON answer.",
  task: Task,
  tools: {},
  verify: (request) => {
    let generation = "";
    for (const item of request.response.output) {
      if (item.type !== "message") continue;
      if (typeof item.content === "string") continue;
      for (const part of item.content) if (part.type === "output_text") generation += part.text ?? "";
    }
    const predicted = parseGeneration(generation);
    const gold = request.expected_answer;
    const alternatives = gtAlternatives(gold);
    const strict = isCorrectStrict(alternatives, predicted) ? 1.0 : 0.0;
    const [remove, reason] = shouldRemove(gold);
    return {
      reward: strict,
      extracted_answer: predicted ? predicted : null,
      answer_em: answerExactMatch(predicted, gold),
      answer_f1: answerF1Score(predicted, gold)[0],
      is_correct: isCorrect(alternatives, predicted) ? 1.0 : 0.0,
      is_correct_strict: strict,
      gt_should_remove: remove,
      gt_remove_reason: reason,
    };
  },
  computeMetrics: (tasks) => {
    // NeMo Gym's compute_metrics with report_filtered_metrics (default true): all tasks, then those whose GT is kept.
    const metrics: Record<string, unknown> = { ...passAtK(tasks, { answerKey: "extracted_answer", scoreFn }) };
    const kept = tasks.filter((rollouts) => rollouts.length > 0 && !rollouts[0]!.gt_should_remove);
    if (kept.length > 0) {
      const { per_sample_aggregate: _dropped, ...filtered } = passAtK(kept, { answerKey: "extracted_answer", scoreFn });
      for (const [key, value] of Object.entries(filtered)) metrics[`filtered_${key}`] = value;
    }
    metrics.filtered_num_tasks = kept.length;
    metrics.unfiltered_num_tasks = tasks.length;
    return metrics;
  },
});

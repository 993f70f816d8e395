// Port of NeMo Gym's spartqa: SpartQA choose-object questions; reward 1.0 iff the answer resolves to the gold label.
import { allOutputText, defineEnvironment, z } from "../sdk/index.js";
import { pyFloatRepr } from "../sdk/python/numbers.js";
import { pyTruthy } from "../sdk/python/values.js";
import { BOTH_LABEL, candidateLabels, extractAnswer, labelKey, matchLabel, NONE_LABEL, normalize } from "./answer.js";

const Task = z.looseObject({
  target: z.string().default(""),
  options: z.array(z.string()).default([]),
  verifier_metadata: z.record(z.string(), z.unknown()).nullish(),
});

/** Python's str() of a JSON scalar from verifier_metadata (a JSON number's int/float kind is not kept: 1.0 reads as 1). */
function pyStrScalar(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : pyFloatRepr(value);
  return JSON.stringify(value);
}

/** Python's list(x or []) of verifier_metadata.options: a string's characters, a dict's keys; a number raises. */
function pyList(value: unknown): unknown[] {
  if (value === null || value === undefined || value === false || value === "" || value === 0) return [];
  if (Array.isArray(value)) return value;
  if (typeof value === "string") return Array.from(value);
  if (typeof value === "object") return Object.keys(value);
  throw new TypeError(`verifier_metadata.options: '${typeof value}' object is not iterable`);
}

export default defineEnvironment({
  name: "spartqa",
  description: "SpartQA choose-object: the answer must resolve to the gold label among the two objects, both, or none.",
  task: Task,
  tools: {},
  verify: (request) => {
    const prediction = extractAnswer(allOutputText(request.response));
    // The explicit fields first; verifier_metadata is the fallback NeMo Gym keeps for drivers that drop lists.
    const meta = request.verifier_metadata ?? {};
    const gold = request.target || pyStrScalar(meta.target ?? "");
    const options = request.options.length > 0 ? request.options : pyList(meta.options).map(pyStrScalar);
    const labels = options.length > 0 ? candidateLabels(options) : candidateLabels([gold]);
    const predicted = matchLabel(prediction, labels);
    const goldKey = labelKey(gold);
    const correct = Boolean(goldKey) && predicted !== null && labelKey(predicted) === goldKey;
    return {
      reward: correct ? 1.0 : 0.0,
      exact: correct && labelKey(prediction) === goldKey,
      parsed: Boolean(normalize(prediction)),
      extracted: Array.from(prediction).slice(0, 200).join(""),
      predicted_label: predicted ?? "",
    };
  },
  computeMetrics: (tasks) => {
    const rows = tasks.flat() as Record<string, unknown>[];
    if (rows.length === 0) return {};
    const metrics: Record<string, number> = {};
    const rewards = rows
      .map((r) => r.reward)
      .filter((r): r is number => typeof r === "number" || typeof r === "boolean")
      .map(Number);
    if (rewards.length > 0) {
      metrics.mean_reward = rewards.reduce((a, b) => a + b, 0) / rewards.length;
      metrics.count = rewards.length;
    }
    const share = (test: (r: Record<string, unknown>) => boolean) => rows.filter(test).length / rows.length;
    metrics.exact_match_rate = share((r) => pyTruthy(r.exact));
    metrics.parse_rate = share((r) => pyTruthy(r.parsed));
    metrics.label_resolve_rate = share((r) => pyTruthy(r.predicted_label));
    for (const label of [BOTH_LABEL, NONE_LABEL]) {
      const slice = rows.filter((r) => labelKey(pyStrScalar(r.target ?? "")) === labelKey(label));
      if (slice.length > 0) metrics[`accuracy_${label.replaceAll(" ", "_")}`] = slice.filter((r) => r.reward === 1.0).length / slice.length;
    }
    return metrics;
  },
});

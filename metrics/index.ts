// NeMo Gym compatible /aggregate_metrics: baseline stats per task and overall, pass@k, key metrics.

import { highestKFromKeys } from "./highest-k.js";
import { groupByTask } from "./keys.js";
import { writePassAtK } from "./pass-at-k.js";
import { profileVerifyResponses } from "./profile.js";
import { TASK_INDEX_KEY, type AggregateMetrics, type VerifyResult } from "./types.js";

export { groupByTask } from "./keys.js";
export { highestKMetrics, type HighestKOptions } from "./highest-k.js";
export { passAtK, type PassAtKOptions } from "./pass-at-k.js";
export {
  ROLLOUT_INDEX_KEY,
  TASK_INDEX_KEY,
  type AggregateMetrics,
  type PassAtKMetrics,
  type ScoreFn,
  type VerifyResult,
} from "./types.js";

export interface AggregateMetricsOptions {
  /**
   * Port of `compute_metrics`: gets the verify responses grouped by task (see groupByTask) and
   * returns entries merged into agent_metrics. A `per_task_metrics` array of
   * `{ _ng_task_index, ... }` is merged into the matching group_level_metrics entry instead.
   * Default: passAtK(tasks, { answerKey }).
   */
  computeMetrics?: ((tasks: VerifyResult[][]) => Record<string, unknown>) | undefined;
  /** Port of `get_key_metrics`: picks headline metrics from agent_metrics. */
  keyMetrics?: ((agentMetrics: Record<string, unknown>) => Record<string, unknown>) | undefined;
  /** Answer field for the default computeMetrics (enables majority@k and no_answer). */
  answerKey?: string | undefined;
}

/**
 * Default headline metrics. NeMo Gym's default is every `mean/*` entry; the highest-k
 * `pass@1[avg-of-{k}]/*` and `pass@{k}/*` entries are edgegym's addition, matching what most
 * NeMo Gym resources servers select in their own get_key_metrics.
 */
export function defaultKeyMetrics(agentMetrics: Record<string, unknown>): Record<string, unknown> {
  const keys = Object.keys(agentMetrics);
  const key: Record<string, unknown> = {};
  for (const k of keys) if (k.startsWith("mean/")) key[k] = agentMetrics[k];
  Object.assign(key, highestKFromKeys(keys, agentMetrics, "pass@1[avg-of-{k}]"));
  Object.assign(key, highestKFromKeys(keys, agentMetrics, "pass@{k}"));
  return key;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Merge compute_metrics' `per_task_metrics` into the group entries, keyed by task index. */
function mergePerTaskMetrics(groups: Record<string, unknown>[], perTask: unknown): void {
  if (!Array.isArray(perTask)) {
    throw new TypeError("computeMetrics returned per_task_metrics that is not an array");
  }
  const byTask = new Map<unknown, Record<string, unknown>>();
  for (const entry of perTask) if (isRecord(entry)) byTask.set(entry[TASK_INDEX_KEY], entry);
  for (const group of groups) {
    const extra = byTask.get(group[TASK_INDEX_KEY]);
    if (!extra) continue;
    for (const [k, v] of Object.entries(extra)) if (k !== TASK_INDEX_KEY) group[k] = v;
  }
}

/**
 * Port of NeMo Gym's compute_aggregate_metrics. For every numeric (or boolean, as 0/1) field,
 * including `response.usage` numbers, emits `mean|max|min|median|std/<field>` per task
 * (group_level_metrics) and overall (agent_metrics); then merges computeMetrics' output into
 * agent_metrics and picks key_metrics. Throws on duplicate (task, rollout) keys.
 */
export function aggregateMetrics(verifyResponses: readonly VerifyResult[], options: AggregateMetricsOptions = {}): AggregateMetrics {
  if (verifyResponses.length === 0) return { group_level_metrics: [], agent_metrics: {}, key_metrics: {} };

  const { groupLevel, agentMetrics } = profileVerifyResponses(verifyResponses);

  const tasks = groupByTask(verifyResponses);
  if (options.computeMetrics) {
    const custom = options.computeMetrics(tasks);
    // per_task_metrics goes to the groups, everything else into agent_metrics (NeMo Gym pops it
    // from the dict; we skip it instead so the caller's object is left alone and not copied).
    for (const k of Object.keys(custom)) if (k !== "per_task_metrics") agentMetrics[k] = custom[k];
    const perTask = custom["per_task_metrics"];
    // NeMo Gym skips a falsy value (None, empty list) here.
    if (perTask !== undefined && perTask !== null) mergePerTaskMetrics(groupLevel, perTask);
  } else {
    // Same as merging passAtK(tasks, { answerKey }), without building and copying a second object.
    writePassAtK(agentMetrics, tasks, { answerKey: options.answerKey });
  }

  const keyMetrics = (options.keyMetrics ?? defaultKeyMetrics)(agentMetrics);
  return { group_level_metrics: groupLevel, agent_metrics: agentMetrics, key_metrics: keyMetrics };
}

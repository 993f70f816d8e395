// Task/rollout index handling: defaults, validation and grouping of verify responses by task.

import { type ROLLOUT_INDEX_KEY, TASK_INDEX_KEY, type VerifyResult } from "./types.js";

/**
 * Read `_ng_task_index` / `_ng_rollout_index`. Missing means 0 (NeMo Gym's `vr.get(key, 0)`);
 * anything that is not an integer is rejected because it cannot be sorted or grouped sensibly.
 */
export function readIndex(vr: VerifyResult, key: typeof TASK_INDEX_KEY | typeof ROLLOUT_INDEX_KEY): number {
  const value: unknown = vr[key];
  if (value === undefined) return 0;
  if (typeof value === "number" && Number.isInteger(value)) return value;
  throw new TypeError(`${key} must be an integer when present, got ${JSON.stringify(value) ?? String(value)}`);
}

/**
 * Group verify responses by task index (port of NeMo Gym's `_group_by_task`): tasks ascending,
 * rollouts in input order (not re-sorted by rollout index, exactly as NeMo Gym hands them to
 * compute_metrics).
 */
export function groupByTask(verifyResponses: readonly VerifyResult[]): VerifyResult[][] {
  const groups = new Map<number, VerifyResult[]>();
  for (const vr of verifyResponses) {
    const task = readIndex(vr, TASK_INDEX_KEY);
    const group = groups.get(task);
    if (group) group.push(vr);
    else groups.set(task, [vr]);
  }
  return [...groups.keys()].sort((a, b) => a - b).map((task) => groups.get(task)!);
}

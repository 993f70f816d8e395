// Port of structured_outputs' compute_metrics: mean reward per format, problem type, schema representation and v4 knob.
import type { VerifyResult } from "../../metrics/index.js";
import { pyTruthy as truthy } from "../sdk/python/values.js";

/** str() of a JSON value as a group name: Python prints booleans as True/False and numbers without JS quirks. */
function str(value: unknown): string {
  if (typeof value === "boolean") return value ? "True" : "False";
  if (value === null) return "None";
  return String(value);
}

/** Each group, in NeMo Gym's order: metric prefix, and the group name of one rollout (undefined = not counted). */
const GROUPINGS: [string, (r: VerifyResult) => string | undefined][] = [
  ["", (r) => (r.schema_type === undefined ? "unknown" : str(r.schema_type))],
  ["", (r) => (truthy(r.problem_type) ? str(r.problem_type) : undefined)],
  ["repr_", (r) => (truthy(r.schema_repr) ? str(r.schema_repr) : undefined)],
  ["response_mode_", (r) => (truthy(r.response_mode) ? str(r.response_mode) : undefined)],
  ["tool_schema_mode_", (r) => (truthy(r.tool_schema_mode) ? str(r.tool_schema_mode) : undefined)],
  ["tool_choice_", (r) => (truthy(r.tool_choice) ? str(r.tool_choice) : undefined)],
  // `str(bool(x)).lower()`: any non-None value, by its truthiness.
  ["parallel_tool_calls_", (r) => (r.parallel_tool_calls === undefined || r.parallel_tool_calls === null ? undefined : String(truthy(r.parallel_tool_calls)))],
  ["num_tools_", (r) => (r.num_tools === undefined || r.num_tools === null ? undefined : str(r.num_tools))],
  ["has_distractors_", (r) => (r.has_distractors === undefined || r.has_distractors === null ? undefined : String(truthy(r.has_distractors)))],
  ["instruction_layout_", (r) => (truthy(r.instruction_layout) ? str(r.instruction_layout) : undefined)],
  ["instruction_detail_level_", (r) => (truthy(r.instruction_detail_level) ? str(r.instruction_detail_level) : undefined)],
  ["system_instruction_style_", (r) => (truthy(r.system_instruction_style) ? str(r.system_instruction_style) : undefined)],
  ["tool_name_style_", (r) => (truthy(r.tool_name_style) ? str(r.tool_name_style) : undefined)],
  ["distractor_style_", (r) => (truthy(r.distractor_style) ? str(r.distractor_style) : undefined)],
  ["tool_union_mode_", (r) => (truthy(r.tool_union_mode) ? str(r.tool_union_mode) : undefined)],
];

/**
 * `mean/reward_{group}` for every group of every grouping, filled grouping by grouping; a later grouping
 * overwrites an equal key (a problem_type named like a format), as NeMo Gym's dict.update does.
 * NeMo Gym's override replaces the default pass@k metrics.
 */
export function computeMetrics(tasks: VerifyResult[][]): Record<string, unknown> {
  const metrics: Record<string, number> = {};
  for (const [prefix, groupOf] of GROUPINGS) {
    const rewards = new Map<string, number[]>();
    for (const rollouts of tasks) {
      for (const rollout of rollouts) {
        const group = groupOf(rollout);
        if (group === undefined) continue;
        const reward = rollout.reward === undefined ? 0.0 : Number(rollout.reward);
        rewards.set(group, [...(rewards.get(group) ?? []), reward]);
      }
    }
    for (const [group, values] of rewards) metrics[`mean/reward_${prefix}${group}`] = values.reduce((a, b) => a + b, 0) / values.length;
  }
  return metrics;
}

// aggregateMetrics against NeMo Gym's recorded /aggregate_metrics output for the fixture rollouts.
//
// Expected values are copied from NeMo Gym (github.com/NVIDIA-NeMo/Gym, Apache-2.0),
// resources_servers/<name>/data/example_rollouts_aggregate_metrics.json, produced from the same
// example_rollouts.jsonl that tests/fixtures/nemo-gym holds (byte-identical copies).

import { describe, expect, it } from "vitest";
import { aggregateMetrics, type VerifyResult } from "../../metrics/index.js";
import { fixtureRollouts } from "../helpers/fixtures.js";

/** What NeMo Gym's rollout collection sends to /aggregate_metrics: heavy fields dropped, usage kept. */
function stripped(rollouts: Record<string, unknown>[]): VerifyResult[] {
  const heavy = new Set(["response", "responses_create_params", "ng_agent_observations", "ng_model_call_capture", "ng_trajectory"]);
  return rollouts.map((rollout) => {
    const entry: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(rollout)) if (!heavy.has(k)) entry[k] = v;
    const usage = (rollout["response"] as { usage?: unknown } | undefined)?.usage;
    if (usage) entry["response"] = { usage };
    return entry;
  });
}

// NeMo Gym's base compute_metrics adds nothing; use that so only the RewardProfiler part is compared.
const nemoGymDefaults = { computeMetrics: () => ({}) };

describe("NeMo Gym golden output", () => {
  it("blackjack: one task, five rollouts", () => {
    const result = aggregateMetrics(stripped(fixtureRollouts("blackjack")), nemoGymDefaults);
    const stats = {
      "mean/reward": 0.2,
      "mean/terminated": 1.0,
      "mean/truncated": 0.0,
      "mean/input_tokens": 153.8,
      "mean/output_tokens": 11.2,
      "mean/total_tokens": 165.0,
      "max/reward": 1.0,
      "max/terminated": 1.0,
      "max/truncated": 0.0,
      "max/input_tokens": 244.0,
      "max/output_tokens": 16.0,
      "max/total_tokens": 260.0,
      "min/reward": -1.0,
      "min/terminated": 1.0,
      "min/truncated": 0.0,
      "min/input_tokens": 93.0,
      "min/output_tokens": 8.0,
      "min/total_tokens": 101.0,
      "median/reward": 1.0,
      "median/terminated": 1.0,
      "median/truncated": 0.0,
      "median/input_tokens": 95.0,
      "median/output_tokens": 8.0,
      "median/total_tokens": 103.0,
      "std/reward": 1.0954451150103324,
      "std/terminated": 0.0,
      "std/truncated": 0.0,
      "std/input_tokens": 82.34500592021352,
      "std/output_tokens": 4.381780460041329,
      "std/total_tokens": 86.72658185354707,
    }; // prettier-ignore
    const info = (r: number, reward: number, input: number, output: number) => ({
      rollout_id: `0:${r}`,
      _ng_task_index: 0,
      _ng_rollout_index: r,
      reward,
      input_tokens: input,
      output_tokens: output,
      total_tokens: input + output,
      terminated: 1,
      truncated: 0,
    }); // prettier-ignore
    // Field order of NeMo Gym's AggregateMetrics model.
    const expected = {
      group_level_metrics: [
        {
          _ng_task_index: 0,
          ...stats,
          sample: { agent_ref: { name: "agent" } },
          num_rollouts: 5,
          expected_num_rollouts: 5,
          missing_num_rollouts: 0,
          reward_profile_completion_pct: 100.0,
          rollout_infos: [info(0, -1, 244, 16), info(1, 1, 95, 8), info(2, -1, 93, 8), info(3, 1, 244, 16), info(4, 1, 93, 8)],
        },
      ],
      agent_metrics: stats,
      key_metrics: Object.fromEntries(Object.entries(stats).filter(([k]) => k.startsWith("mean/"))),
    };
    // Serialized comparison: same keys, same order, same bits.
    expect(JSON.stringify(result)).toBe(JSON.stringify(expected));
  });

  it("example_multi_turn_gymnasium: five single-rollout tasks (std 0 rule)", () => {
    const result = aggregateMetrics(stripped(fixtureRollouts("example_multi_turn_gymnasium")), nemoGymDefaults);
    expect(result.agent_metrics).toEqual({
      "mean/reward": 1.0,
      "mean/terminated": 1.0,
      "mean/truncated": 0.0,
      "mean/input_tokens": 89.6,
      "mean/output_tokens": 77.6,
      "mean/total_tokens": 167.2,
      "max/reward": 1.0,
      "max/terminated": 1.0,
      "max/truncated": 0.0,
      "max/input_tokens": 173.0,
      "max/output_tokens": 150.0,
      "max/total_tokens": 280.0,
      "min/reward": 1.0,
      "min/terminated": 1.0,
      "min/truncated": 0.0,
      "min/input_tokens": 63.0,
      "min/output_tokens": 30.0,
      "min/total_tokens": 93.0,
      "median/reward": 1.0,
      "median/terminated": 1.0,
      "median/truncated": 0.0,
      "median/input_tokens": 73.0,
      "median/output_tokens": 70.0,
      "median/total_tokens": 145.0,
      "std/reward": 0.0,
      "std/terminated": 0.0,
      "std/truncated": 0.0,
      "std/input_tokens": 46.923341739479724,
      "std/output_tokens": 51.481064480059075,
      "std/total_tokens": 78.9094417671295,
    }); // prettier-ignore
    const task1 = result.group_level_metrics[1]!;
    expect(task1["_ng_task_index"]).toBe(1);
    for (const field of ["reward", "terminated", "truncated", "input_tokens", "output_tokens", "total_tokens"]) {
      expect(task1[`std/${field}`]).toBe(0);
    }
    expect(task1["mean/total_tokens"]).toBe(145.0);
    expect(task1["rollout_infos"]).toEqual([
      {
        rollout_id: "1:0",
        _ng_task_index: 1,
        _ng_rollout_index: 0,
        reward: 1.0,
        input_tokens: 75,
        output_tokens: 70,
        total_tokens: 145,
        terminated: 1,
        truncated: 0,
      },
    ]);
  });
});

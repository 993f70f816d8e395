// aggregateMetrics: NeMo Gym's RewardProfiler stats, group shape, keys, errors and hooks.

import { describe, expect, it, vi } from "vitest";
import { aggregateMetrics, type VerifyResult } from "../../metrics/index.js";

function vr(task: number, rollout: number, fields: Record<string, unknown> = {}): VerifyResult {
  return { _ng_task_index: task, _ng_rollout_index: rollout, ...fields };
}

describe("aggregateMetrics baseline stats", () => {
  it("odd count: mean, median, max, min and sample std", () => {
    // rewards 1, 0, 0.5 (input order shuffled on purpose)
    const { agent_metrics } = aggregateMetrics([vr(0, 2, { reward: 0.5 }), vr(0, 0, { reward: 1 }), vr(0, 1, { reward: 0 })]);
    expect(agent_metrics["mean/reward"]).toBe(0.5); // (1 + 0 + 0.5) / 3
    expect(agent_metrics["median/reward"]).toBe(0.5); // sorted 0, 0.5, 1 -> middle
    expect(agent_metrics["max/reward"]).toBe(1);
    expect(agent_metrics["min/reward"]).toBe(0);
    // deviations 0.5, -0.5, 0 -> squares 0.25 + 0.25 + 0 = 0.5; / (3 - 1) = 0.25; sqrt = 0.5
    expect(agent_metrics["std/reward"]).toBe(0.5);
  });

  it("even count: median averages the two middle values", () => {
    const { agent_metrics } = aggregateMetrics([1, 2, 3, 10].map((reward, i) => vr(0, i, { reward })));
    expect(agent_metrics["mean/reward"]).toBe(4); // 16 / 4
    expect(agent_metrics["median/reward"]).toBe(2.5); // (2 + 3) / 2
    // squares 9 + 4 + 1 + 36 = 50; / (4 - 1)
    expect(agent_metrics["std/reward"]).toBe(Math.sqrt(50 / 3));
  });

  it("std is 0 (not NaN) for a single rollout, per task and overall", () => {
    const result = aggregateMetrics([vr(0, 0, { reward: 0.7 })]);
    expect(result.agent_metrics["std/reward"]).toBe(0);
    expect(result.group_level_metrics[0]!["std/reward"]).toBe(0);
  });

  it("keeps NeMo Gym's std rule: a field present once in a multi-rollout task gets no std", () => {
    const result = aggregateMetrics([vr(0, 0, { reward: 1, score: 3 }), vr(0, 1, { reward: 0 })]);
    const group = result.group_level_metrics[0]!;
    expect(group["mean/score"]).toBe(3);
    expect(group).not.toHaveProperty("std/score"); // one value -> NaN, and reward's std is not NaN
    expect(group["std/reward"]).toBe(Math.SQRT1_2); // squares 0.25 + 0.25 = 0.5; / 1; sqrt
  });

  it("a single-rollout task missing a field gets no stats for it at all", () => {
    const result = aggregateMetrics([vr(0, 0, { reward: 1, score: 2 }), vr(1, 0, { reward: 0 })]);
    const task1 = result.group_level_metrics[1]!;
    expect(task1["std/reward"]).toBe(0);
    expect(Object.keys(task1).some((k) => k.endsWith("/score"))).toBe(false);
  });

  it("counts booleans as 0/1", () => {
    const { agent_metrics } = aggregateMetrics([true, false, true, true].map((reward, i) => vr(0, i, { reward })));
    expect(agent_metrics["mean/reward"]).toBe(0.75); // 3 / 4
    expect(agent_metrics["median/reward"]).toBe(1); // sorted 0, 1, 1, 1 -> (1 + 1) / 2
    // deviations -0.25 (x3) and 0.75 -> 3 * 0.0625 + 0.5625 = 0.75; / 3 = 0.25; sqrt = 0.5
    expect(agent_metrics["std/reward"]).toBe(0.5);
  });

  it("merges response.usage numbers and ignores nested objects and non-numbers", () => {
    const usage = (input: number, output: number) => ({
      usage: { input_tokens: input, output_tokens: output, total_tokens: input + output, input_tokens_details: { cached_tokens: 4 } },
    });
    const { agent_metrics } = aggregateMetrics([
      vr(0, 0, { reward: 1, response: usage(10, 5), judge: "yes", meta: { x: 1 }, note: null }),
      vr(0, 1, { reward: 0, response: usage(30, 7), judge: "no", meta: { x: 2 }, note: null }),
    ]);
    expect(agent_metrics["mean/input_tokens"]).toBe(20); // (10 + 30) / 2
    expect(agent_metrics["mean/output_tokens"]).toBe(6); // (5 + 7) / 2
    expect(agent_metrics["mean/total_tokens"]).toBe(26); // (15 + 37) / 2
    expect(agent_metrics["std/input_tokens"]).toBe(Math.sqrt(200)); // (10^2 + 10^2) / 1
    expect(agent_metrics["max/total_tokens"]).toBe(37);
    const statKeys = Object.keys(agent_metrics).filter((k) => /^(mean|max|min|median|std)\//.test(k));
    const fields = new Set(statKeys.map((k) => k.split("/")[1]));
    expect([...fields].sort()).toEqual(["input_tokens", "output_tokens", "reward", "total_tokens"]);
  });

  it("usage shadows a same-named top-level field in the stats but not in rollout_infos", () => {
    const result = aggregateMetrics([vr(0, 0, { reward: 1, input_tokens: 1, response: { usage: { input_tokens: 10 } } })]);
    expect(result.agent_metrics["mean/input_tokens"]).toBe(10); // Python: result | usage
    const info = (result.group_level_metrics[0]!["rollout_infos"] as Record<string, unknown>[])[0]!;
    expect(info["input_tokens"]).toBe(1); // rollout_info_from_result writes top-level fields last
  });

  it("computes fields missing in some rollouts over the rollouts that have them", () => {
    const { agent_metrics } = aggregateMetrics([vr(0, 0, { reward: 1, score: 2 }), vr(0, 1, { reward: 1 }), vr(0, 2, { reward: 1, score: 4 })]);
    expect(agent_metrics["mean/score"]).toBe(3); // (2 + 4) / 2
    expect(agent_metrics["median/score"]).toBe(3);
    expect(agent_metrics["std/score"]).toBe(Math.SQRT2); // (1 + 1) / (2 - 1)
  });
});

describe("aggregateMetrics group level", () => {
  const result = aggregateMetrics([
    vr(5, 1, { reward: 0 }),
    vr(2, 1, { reward: true, response: { usage: { output_tokens: 8 } } }),
    vr(5, 0, { reward: 1 }),
    vr(2, 0, { reward: false, response: { usage: { output_tokens: 4 } } }),
  ]);

  it("one entry per task, sorted, with NeMo Gym's fields in its order", () => {
    expect(result.group_level_metrics.map((g) => g["_ng_task_index"])).toEqual([2, 5]);
    const task2 = result.group_level_metrics[0]!;
    expect(Object.keys(task2)).toEqual([
      "_ng_task_index",
      "mean/reward",
      "mean/output_tokens",
      "max/reward",
      "max/output_tokens",
      "min/reward",
      "min/output_tokens",
      "median/reward",
      "median/output_tokens",
      "std/reward",
      "std/output_tokens",
      "sample",
      "num_rollouts",
      "expected_num_rollouts",
      "missing_num_rollouts",
      "reward_profile_completion_pct",
      "rollout_infos",
    ]); // prettier-ignore
    expect(task2).toMatchObject({
      "mean/reward": 0.5, // (0 + 1) / 2
      "mean/output_tokens": 6, // (4 + 8) / 2
      sample: { agent_ref: { name: "agent" } }, // the synthetic row minus its indices
      num_rollouts: 2,
      expected_num_rollouts: 2,
      missing_num_rollouts: 0,
      reward_profile_completion_pct: 100,
    });
  });

  it("rollout_infos are sorted by rollout index and keep reward raw", () => {
    expect(result.group_level_metrics[0]!["rollout_infos"]).toEqual([
      { rollout_id: "2:0", _ng_task_index: 2, _ng_rollout_index: 0, reward: false, output_tokens: 4 },
      { rollout_id: "2:1", _ng_task_index: 2, _ng_rollout_index: 1, reward: true, output_tokens: 8 },
    ]);
  });

  it("never reports stats for the index fields", () => {
    const keys = [...Object.keys(result.agent_metrics), ...Object.keys(result.group_level_metrics[1]!)];
    expect(keys.filter((k) => k.includes("_ng_") && k.includes("/"))).toEqual([]);
  });

  it("defaults missing indices to 0", () => {
    const [group] = aggregateMetrics([{ reward: 1 }]).group_level_metrics;
    expect(group!["_ng_task_index"]).toBe(0);
    expect(group!["rollout_infos"]).toEqual([{ rollout_id: "0:0", _ng_task_index: 0, _ng_rollout_index: 0, reward: 1 }]);
  });
});

describe("aggregateMetrics errors and empty input", () => {
  it("throws on a duplicate (task, rollout) key, naming it", () => {
    expect(() => aggregateMetrics([vr(1, 3, { reward: 1 }), vr(1, 3, { reward: 0 })])).toThrow(/Duplicate .*\(1, 3\)/);
    // Both default to (0, 0).
    expect(() => aggregateMetrics([{ reward: 1 }, { reward: 0 }])).toThrow(/_ng_task_index=0, _ng_rollout_index=0/);
  });

  it("rejects a non-integer index", () => {
    expect(() => aggregateMetrics([{ _ng_task_index: "a" as unknown as number, reward: 1 }])).toThrow(TypeError);
  });

  it("empty input gives the empty shape without calling the hooks", () => {
    const computeMetrics = vi.fn(() => ({}));
    expect(aggregateMetrics([], { computeMetrics })).toEqual({ group_level_metrics: [], agent_metrics: {}, key_metrics: {} });
    expect(computeMetrics).not.toHaveBeenCalled();
  });
});

describe("aggregateMetrics pass@k and key metrics", () => {
  it("merges pass@k by default and picks mean/* plus the highest-k pass entries", () => {
    const result = aggregateMetrics([0, 1, 0, 0].map((reward, i) => vr(0, i, { reward })));
    expect(result.agent_metrics["pass@2/accuracy"]).toBe(50); // 1 - C(3,2)/C(4,2) = 1 - 3/6
    expect(result.key_metrics).toEqual({
      "mean/reward": 0.25,
      "pass@1[avg-of-4]/accuracy": 25, // 1 correct of 4
      "pass@4/accuracy": 100, // only 3 incorrect, so any 4 include the correct one
    });
  });

  it("answerKey enables majority@k in the default", () => {
    const result = aggregateMetrics([vr(0, 0, { reward: 1, ans: "A" }), vr(0, 1, { reward: 0, ans: "B" })], { answerKey: "ans" });
    expect(result.agent_metrics["majority@2/accuracy"]).toBe(50); // tie (A,1) vs (B,0) -> (1 + 0) / 2
  });

  it("custom computeMetrics gets tasks grouped, merges per_task_metrics into groups", () => {
    const custom = {
      custom_agg: 99,
      per_task_metrics: [
        { _ng_task_index: 0, difficulty: "easy" },
        { _ng_task_index: 1, difficulty: "hard" },
      ],
    };
    const computeMetrics = vi.fn((_tasks: VerifyResult[][]) => custom);
    const responses = [vr(1, 1, { reward: 0 }), vr(0, 0, { reward: 1 }), vr(1, 0, { reward: 1 })];
    const result = aggregateMetrics(responses, { computeMetrics, keyMetrics: (am) => ({ agg: am["custom_agg"] }) });

    // Tasks ascending; rollouts in input order (NeMo Gym's _group_by_task does not sort them).
    expect(computeMetrics.mock.calls[0]![0]).toEqual([[responses[1]], [responses[0], responses[2]]]);
    expect(result.agent_metrics["custom_agg"]).toBe(99);
    expect(result.agent_metrics).not.toHaveProperty("per_task_metrics");
    expect(Object.keys(result.agent_metrics).some((k) => k.startsWith("pass@"))).toBe(false);
    expect(result.group_level_metrics.map((g) => g["difficulty"])).toEqual(["easy", "hard"]);
    expect(result.key_metrics).toEqual({ agg: 99 });
    expect(custom).toHaveProperty("per_task_metrics"); // caller's object untouched
  });
});

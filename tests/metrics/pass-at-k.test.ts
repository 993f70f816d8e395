// passAtK (compute_pass_majority_metrics + add_avg_sample_std_dev port) and highestKMetrics.

import { describe, expect, it } from "vitest";
import { groupByTask, highestKMetrics, passAtK, type VerifyResult } from "../../metrics/index.js";

const rewards = (...values: (number | boolean)[]): VerifyResult[] => values.map((reward) => ({ reward }));
const answered = (...pairs: [unknown, number][]): VerifyResult[] => pairs.map(([ans, reward]) => ({ ans, reward }));

describe("pass@k", () => {
  it("binary: unbiased estimator, n=4 with 1 correct", () => {
    const m = passAtK([rewards(0, 1, 0, 0)]);
    expect(m["pass@1/accuracy"]).toBe(25); // 1 - C(3,1)/C(4,1) = 1 - 3/4
    expect(m["pass@2/accuracy"]).toBe(50); // 1 - C(3,2)/C(4,2) = 1 - 3/6
    expect(m["pass@3/accuracy"]).toBe(75); // 1 - C(3,3)/C(4,3) = 1 - 1/4
    expect(m["pass@4/accuracy"]).toBe(100); // 3 incorrect < 4
    // pass@1[avg-of-k] = mean of the first k: 0, 1/2, 1/3, 1/4
    expect(m["pass@1[avg-of-1]/accuracy"]).toBe(0);
    expect(m["pass@1[avg-of-2]/accuracy"]).toBe(50);
    expect(m["pass@1[avg-of-3]/accuracy"]).toBe(100 * (1 / 3));
    expect(m["pass@1[avg-of-4]/accuracy"]).toBe(25);
    expect(m["per_sample_aggregate"]).toEqual({ accuracy: [0, 100, 0, 0] });
  });

  it("binary: exact ratio like Python's comb()/comb(), and no overflow for large n", () => {
    const thirtyOfSixty = rewards(...Array.from({ length: 60 }, (_, i) => (i < 30 ? 1 : 0)));
    // C(30,10) = 30045015, C(60,10) = 75394027566
    expect(passAtK([thirtyOfSixty])["pass@10/accuracy"]).toBe(100 * (1 - 30045015 / 75394027566));

    const oneOfTenThousand = rewards(1, ...Array<number>(9999).fill(0));
    const m = passAtK([oneOfTenThousand], { avgSampleStdDev: false });
    // C(9999,k)/C(10000,k) = (10000-k)/10000, so pass@k = k/10000
    expect(m["pass@5000/accuracy"]).toBeCloseTo(50, 9);
    expect(m["pass@9999/accuracy"]).toBeCloseTo(99.99, 9);
    expect(m["pass@10000/accuracy"]).toBe(100);
  });

  it("continuous: max of the first k", () => {
    const m = passAtK([rewards(0.2, 0.8, 0.5)]);
    expect(m["pass@1/accuracy"]).toBe(20); // max(0.2)
    expect(m["pass@2/accuracy"]).toBe(80); // max(0.2, 0.8)
    expect(m["pass@3/accuracy"]).toBe(80);
  });

  it("decides binary vs continuous per task", () => {
    const m = passAtK([rewards(1, 0), rewards(0.5, 0.25)]);
    // task 0: 1 - C(1,1)/C(2,1) = 0.5; task 1: max(0.5) = 0.5 -> 100 * 1.0 / 2
    expect(m["pass@1/accuracy"]).toBe(50);
    // task 0: 1 incorrect < 2 -> 1; task 1: max(0.5, 0.25) = 0.5 -> 100 * 1.5 / 2
    expect(m["pass@2/accuracy"]).toBe(75);
  });

  it("uneven tasks: pass@k only over tasks with >= k rollouts, avg-of-k over all", () => {
    const m = passAtK([rewards(1), rewards(0, 1, 1)]);
    expect(m["pass@1/accuracy"]).toBeCloseTo((100 * (1 + 2 / 3)) / 2, 12); // 1 and 1 - C(1,1)/C(3,1)
    expect(m["pass@2/accuracy"]).toBe(100); // task 1 only: 1 incorrect < 2
    expect(m["pass@1[avg-of-3]/accuracy"]).toBeCloseTo((100 * (1 + 2 / 3)) / 2, 12); // task 0 keeps its 1
  });

  it("ports NeMo Gym's unit-test expectations", () => {
    const m = passAtK([rewards(1, 1, 1, 1), rewards(0, 0, 0, 0), rewards(1, 0, 1, 0)]);
    expect(m["pass@1/accuracy"]).toBe(50);
    expect(m["pass@4/accuracy"]).toBeCloseTo(200 / 3, 10);
    expect(passAtK([rewards(1, 0), rewards(0, 1), rewards(1, 1)])["pass@1[avg-of-2]/accuracy"]).toBeCloseTo(200 / 3, 10);
  });

  it("custom scoreFn: booleans as 0/1, names sorted, non-numbers ignored", () => {
    const m = passAtK(
      [
        [
          { ok: true, sym: 0.5 },
          { ok: false, sym: "n/a" },
        ],
      ],
      { scoreFn: (r) => ({ sym: r["sym"], acc: r["ok"] }) },
    );
    expect(Object.keys(m).slice(0, 4)).toEqual(["pass@1/acc", "pass@1[avg-of-1]/acc", "pass@1/sym", "pass@1[avg-of-1]/sym"]);
    expect(m["pass@1/acc"]).toBe(50); // 1 - C(1,1)/C(2,1)
    expect(m["per_sample_aggregate"]).toEqual({ acc: [100, 0], sym: [50] });
  });

  it("empty input gives an empty object", () => {
    expect(passAtK([])).toEqual({});
  });
});

describe("majority@k and no_answer", () => {
  it("splits ties evenly", () => {
    const m = passAtK([answered(["A", 1], ["B", 0]), answered(["C", 0], ["C", 0])], { answerKey: "ans" });
    expect(m["majority@1/accuracy"]).toBe(50); // task 0: A -> 1; task 1: C -> 0
    expect(m["majority@2/accuracy"]).toBe(25); // task 0: tie (1 + 0) / 2; task 1: 0 -> 100 * 0.5 / 2
  });

  it("votes on (answer, score) pairs and compares answers like Python", () => {
    // (A,1), (A,0), (B,1) are three different pairs: a 3-way tie -> (1 + 0 + 1) / 3
    expect(passAtK([answered(["A", 1], ["A", 0], ["B", 1])], { answerKey: "ans" })["majority@3/accuracy"]).toBeCloseTo(200 / 3, 12);
    // "1" != 1, so (1, 0) wins 2 votes to 1
    expect(passAtK([answered(["1", 1], [1, 0], [1, 0])], { answerKey: "ans" })["majority@3/accuracy"]).toBe(0);
    // NeMo Gym's own case: task 0 majority A -> 1, task 1 majority C -> 0
    const nemo = [answered(["A", 1], ["A", 1], ["B", 0]), answered(["C", 0], ["C", 0], ["D", 1])];
    expect(passAtK(nemo, { answerKey: "ans" })["majority@3/accuracy"]).toBe(50);
  });

  it("no_answer is a binary score; tasks without any answer count 0 in majority", () => {
    const m = passAtK([answered(["A", 1], [null, 0]), [{ reward: 0 }, { reward: 0, ans: null }]], { answerKey: "ans" });
    // no_answer per rollout: task 0 [0, 1], task 1 [1, 1]
    expect(m["pass@1/no_answer"]).toBe(75); // task 0: 1 - C(1,1)/C(2,1) = 0.5; task 1: 1 -> 100 * 1.5 / 2
    expect(m["pass@2/no_answer"]).toBe(100);
    expect(m["pass@1[avg-of-1]/no_answer"]).toBe(50); // 0 and 1
    expect(m["pass@1[avg-of-2]/no_answer"]).toBe(75); // 0.5 and 1
    expect(m["majority@2/accuracy"]).toBe(50); // task 0: only (A,1) votes -> 1; task 1: nothing -> 0
    // Quirk kept from NeMo Gym: only answered rollouts vote, so majority@k/no_answer is always 0.
    expect(m["majority@2/no_answer"]).toBe(0);
  });

  it("without answerKey there is no majority or no_answer", () => {
    const m = passAtK([answered(["A", 1], ["B", 0])]);
    expect(Object.keys(m).filter((k) => k.startsWith("majority@") || k.includes("no_answer"))).toEqual([]);
  });
});

describe("variance statistics", () => {
  const tasks = [rewards(1, 0), rewards(0, 0), rewards(1, 1)];

  it("std_dev/std_err across runs from per_sample_aggregate", () => {
    const m = passAtK(tasks);
    // run 0: 100 * (1 + 0 + 1) / 3, run 1: 100 * (0 + 0 + 1) / 3 (NeMo Gym scales the sum, then divides)
    expect(m["per_sample_aggregate"]).toEqual({ accuracy: [(100 * 2) / 3, (100 * 1) / 3] });
    // mean 50, deviations +-50/3 -> variance 2 * (50/3)^2 / 1 -> std (50/3) * sqrt(2); err = std / sqrt(2)
    expect(m["pass@1[avg-of-2]/accuracy/std_dev_across_runs"]).toBeCloseTo((50 / 3) * Math.SQRT2, 10);
    expect(m["pass@1[avg-of-2]/accuracy/std_err_across_runs"]).toBeCloseTo(50 / 3, 10);
  });

  it("avg_sample_std_dev stays on the raw score scale, as in NeMo Gym", () => {
    // per-task std of [1,0], [0,0], [1,1] = sqrt(0.5), 0, 0 -> mean sqrt(0.5) / 3 (not x100)
    expect(passAtK(tasks)["pass@1[avg-of-2]/accuracy/avg_sample_std_dev"]).toBeCloseTo(Math.SQRT1_2 / 3, 12);
    expect(passAtK(tasks, { avgSampleStdDev: false })).not.toHaveProperty("pass@1[avg-of-2]/accuracy/avg_sample_std_dev");
  });

  it("no variance keys when every task has one rollout", () => {
    expect(Object.keys(passAtK([rewards(1), rewards(0)])).filter((k) => k.includes("_std_"))).toEqual([]);
  });
});

describe("groupByTask", () => {
  it("sorts tasks, keeps rollout input order, defaults the index to 0", () => {
    const a = { _ng_task_index: 3, _ng_rollout_index: 1 };
    const b = { reward: 1 };
    const c = { _ng_task_index: 3, _ng_rollout_index: 0 };
    expect(groupByTask([a, b, c])).toEqual([[b], [a, c]]);
  });
});

describe("highestKMetrics (NeMo Gym's tests)", () => {
  it("selects the highest k, filters names, skips variance suffixes", () => {
    const am = {
      "pass@1/accuracy": 50,
      "pass@2/accuracy": 75,
      "pass@4/accuracy": 90,
      "pass@4/no_answer": 5,
      "pass@1[avg-of-4]/accuracy/std_dev_across_runs": 1.5,
    };
    expect(highestKMetrics(am, "pass@{k}", { scoreNames: ["accuracy"] })).toEqual({ "pass@4/accuracy": 90 });
    expect(highestKMetrics({ "majority@2/accuracy": 80, "majority@2/no_answer": 3 }, "majority@{k}", { excludeNames: ["no_answer"] })).toEqual({
      "majority@2/accuracy": 80,
    });
    const avg = {
      "pass@1[avg-of-2]/accuracy": 60,
      "pass@1[avg-of-4]/accuracy": 65,
      "pass@1[avg-of-4]/no_answer": 1,
      "pass@1[avg-of-4]/accuracy/std_dev_across_runs": 2,
    };
    expect(highestKMetrics(avg, "pass@1[avg-of-{k}]")).toEqual({ "pass@1[avg-of-4]/accuracy": 65, "pass@1[avg-of-4]/no_answer": 1 });
    expect(highestKMetrics({}, "pass@{k}")).toEqual({});
    expect(highestKMetrics({ unrelated: 1 }, "pass@{k}")).toEqual({});
  });
});

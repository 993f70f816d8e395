// Numeric kernels (numpy-compatible summation, prefix std) and a 10,000-rollout scale check.

import { describe, expect, it } from "vitest";
import { aggregateMetrics, type VerifyResult } from "../../metrics/index.js";
import { pairwiseSum, prefixSampleStds } from "../../metrics/numeric.js";

describe("pairwiseSum", () => {
  it("matches numpy's np.sum, not a left-to-right sum", () => {
    const tenths = new Float64Array(1000).fill(0.1);
    // np.sum(np.full(1000, 0.1)) == 100.00000000000001; Python's sum() gives 99.9999999999986
    expect(pairwiseSum(tenths, 0, 1000)).toBe(100.00000000000001);
  });

  it("so pandas-style means agree with NeMo Gym's", () => {
    const responses = Array.from({ length: 1000 }, (_, i) => ({ _ng_rollout_index: i, reward: 0.1 }));
    expect(aggregateMetrics(responses).agent_metrics["mean/reward"]).toBe(100.00000000000001 / 1000);
  });

  it("sums short runs exactly", () => {
    expect(pairwiseSum(Float64Array.from([1, 2, 3, 4, 5]), 1, 3)).toBe(9); // 2 + 3 + 4
  });
});

describe("prefixSampleStds", () => {
  it("gives the ddof=1 std of every prefix, NaN below two values", () => {
    const stds = prefixSampleStds([2, 4, 4, 4, 5, 5, 7, 9]);
    expect(stds[0]).toBeNaN();
    expect(stds[1]).toBeNaN();
    expect(stds[2]).toBe(Math.SQRT2); // (2 - 3)^2 + (4 - 3)^2 = 2; / 1
    expect(stds[8]).toBe(Math.sqrt(32 / 7)); // mean 5; squares 9+1+1+1+0+0+4+16 = 32; / 7
  });

  it("stays accurate past the exact-formula limit (Welford)", () => {
    const alternating = Array.from({ length: 1000 }, (_, i) => i % 2);
    // mean 0.5, every square 0.25 -> 250 / 999
    expect(prefixSampleStds(alternating)[1000]).toBeCloseTo(Math.sqrt(250 / 999), 12);
  });
});

describe("scale", () => {
  it("gives exact pass@k and means over 10,000 rollouts of one task", () => {
    const responses: VerifyResult[] = Array.from({ length: 10_000 }, (_, i) => ({
      _ng_rollout_index: i,
      reward: i === 0 ? 1 : 0,
      ans: String(i % 3),
      response: { usage: { output_tokens: i } },
    }));
    // Speed is the bench's to measure; here, that the unbiased estimator stays exact at this size.
    const result = aggregateMetrics(responses, { answerKey: "ans" });
    expect(result.agent_metrics["pass@5000/accuracy"]).toBeCloseTo(50, 9); // k / n with one correct
    expect(result.agent_metrics["mean/output_tokens"]).toBe(4999.5); // (0 + ... + 9999) / 10000
    expect(result.key_metrics["pass@10000/accuracy"]).toBe(100);
  });
});

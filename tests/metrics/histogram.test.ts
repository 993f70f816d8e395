// histogram: equal-width bars over [0, 1] for rewards that fit it, else the values' own range; edges as numpy places them.
import { describe, expect, it } from "vitest";
import { histogram } from "../../metrics/histogram.js";

const counts = (values: number[], bins?: number) => histogram(values, bins)?.bins.map((b) => b.count);

describe("histogram", () => {
  it("spans [0, 1] for rewards in it, whatever their own range, and puts 1 in the last bar", () => {
    const h = histogram([1, 1, 1], 10)!;
    expect(h.bins[0]).toEqual({ from: 0, to: 0.1, count: 0 });
    expect(h.bins.at(-1)).toEqual({ from: 0.9, to: 1, count: 3 });
    expect(h).toMatchObject({ count: 3, min: 1, max: 1, mean: 1 });
  });

  it("puts a value on an edge into the bar that edge opens (0.3 → [0.3, 0.4), as numpy does)", () => {
    expect(counts([0, 0.1, 0.3, 0.6, 0.7, 0.9, 1])).toEqual([1, 1, 0, 1, 0, 0, 1, 1, 0, 2]);
  });

  it("uses the values' own range beyond [0, 1], and a unit-wide range around a single value", () => {
    expect(
      histogram([0, 1, 2], 10)!
        .bins.map((b) => [b.from, b.count])
        .filter(([, c]) => c),
    ).toEqual([
      [0, 1],
      [1, 1],
      [1.8, 1],
    ]);
    const single = histogram([3, 3], 2)!;
    expect(single.bins).toEqual([
      { from: 2.5, to: 3, count: 0 },
      { from: 3, to: 3.5, count: 2 },
    ]);
    expect(counts([-1, 0, 1], 2)).toEqual([1, 2]);
  });

  it("ignores what is not a finite number, and is null without any", () => {
    expect(histogram([Number.NaN, Number.POSITIVE_INFINITY])).toBeNull();
    expect(histogram([])).toBeNull();
    expect(histogram([0.5, Number.NaN], 4)).toMatchObject({ count: 1, mean: 0.5 });
  });
});

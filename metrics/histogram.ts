// Equal-width histograms of rewards and reward components, bars placed as numpy.histogram places them.
import type { Histogram } from "../contracts/job-views.js";

/**
 * The range the bars span: [0, 1] when every value lies in it (most rewards: bars then read the same in every job),
 * else the values' own range.
 */
function span(min: number, max: number): [number, number] {
  if (min >= 0 && max <= 1) return [0, 1];
  return min === max ? [min - 0.5, max + 0.5] : [min, max];
}

/** A histogram of the finite values; null when there are none. */
export function histogram(values: ArrayLike<number>, bins = 10): Histogram | null {
  let count = 0;
  let sum = 0;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (!Number.isFinite(v)) continue;
    count++;
    sum += v;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (count === 0) return null;
  const n = Math.max(1, Math.floor(bins));
  const [lo, hi] = span(min, max);
  const edges = Array.from({ length: n + 1 }, (_, i) => (i === n ? hi : lo + ((hi - lo) * i) / n));
  const counts = new Array<number>(n).fill(0);
  const scale = n / (hi - lo);
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (!Number.isFinite(v)) continue;
    // numpy: index by scaling, then correct by the edges themselves, so a value on an edge lands in the bar it opens.
    let bin = Math.min(n - 1, Math.max(0, Math.floor((v - lo) * scale)));
    if (v < edges[bin]!) bin--;
    else if (bin < n - 1 && v >= edges[bin + 1]!) bin++;
    counts[bin]!++;
  }
  return { count, min, max, mean: sum / count, bins: counts.map((c, i) => ({ from: edges[i]!, to: edges[i + 1]!, count: c })) };
}

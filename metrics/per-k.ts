// Per-k averaging over tasks without a tasks × max_k loop.

/**
 * Accumulates, for every k in 1..maxK, the mean of per-task values. A task contributes its own
 * value at each k up to its rollout count (`add`) and, for metrics that keep counting shorter
 * tasks, one constant for every larger k (`addFrom`). Both are O(1), so a curve costs
 * O(rollouts + maxK) instead of NeMo Gym's O(tasks × maxK).
 *
 * Head values for a given k are summed in task order like NeMo Gym's Python `sum`; tail
 * constants are summed separately, so only tasks of unequal length can differ in the last bits.
 */
export class PerKMean {
  private readonly headSum: Float64Array;
  private readonly headCount: Float64Array;
  private readonly tailSumFrom: Float64Array;
  private readonly tailCountFrom: Float64Array;

  constructor(private readonly maxK: number) {
    this.headSum = new Float64Array(maxK + 2);
    this.headCount = new Float64Array(maxK + 2);
    this.tailSumFrom = new Float64Array(maxK + 2);
    this.tailCountFrom = new Float64Array(maxK + 2);
  }

  add(k: number, value: number): void {
    this.headSum[k]! += value;
    this.headCount[k]! += 1;
  }

  /** Contribute `value` to every k' >= k (ignored when k > maxK). */
  addFrom(k: number, value: number): void {
    if (k > this.maxK) return;
    this.tailSumFrom[k]! += value;
    this.tailCountFrom[k]! += 1;
  }

  /** out[k] = scale * sum / count as NeMo Gym writes it (`100.0 * sum(v) / len(v)`), NaN if no task counted. */
  means(scale: number): Float64Array {
    const out = new Float64Array(this.maxK + 1).fill(Number.NaN);
    let tailSum = 0;
    let tailCount = 0;
    for (let k = 1; k <= this.maxK; k++) {
      tailSum += this.tailSumFrom[k]!;
      tailCount += this.tailCountFrom[k]!;
      const count = this.headCount[k]! + tailCount;
      if (count > 0) out[k] = (scale * (tailCount > 0 ? this.headSum[k]! + tailSum : this.headSum[k]!)) / count;
    }
    return out;
  }
}

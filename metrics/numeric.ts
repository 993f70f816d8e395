// Numeric kernels shared by the metrics module: numpy-style summation and prefix sample std.

// numpy's pairwise summation block size (PW_BLOCKSIZE in numpy/_core/src/umath/loops_utils.h.src).
const PW_BLOCKSIZE = 128;

/**
 * Sum `n` values of `a` starting at `offset` the way numpy's float64 `add.reduce` does
 * (pairwise with 8 accumulators). pandas' mean/std go through this, so mirroring its
 * association order keeps our means bit-identical to NeMo Gym's for ordinary inputs.
 */
export function pairwiseSum(a: Float64Array, offset: number, n: number): number {
  if (n < 8) {
    let res = 0;
    for (let i = 0; i < n; i++) res += a[offset + i]!;
    return res;
  }
  if (n <= PW_BLOCKSIZE) {
    let r0 = a[offset]!;
    let r1 = a[offset + 1]!;
    let r2 = a[offset + 2]!;
    let r3 = a[offset + 3]!;
    let r4 = a[offset + 4]!;
    let r5 = a[offset + 5]!;
    let r6 = a[offset + 6]!;
    let r7 = a[offset + 7]!;
    const unrolled = n - (n % 8);
    let i = 8;
    for (; i < unrolled; i += 8) {
      const p = offset + i;
      r0 += a[p]!;
      r1 += a[p + 1]!;
      r2 += a[p + 2]!;
      r3 += a[p + 3]!;
      r4 += a[p + 4]!;
      r5 += a[p + 5]!;
      r6 += a[p + 6]!;
      r7 += a[p + 7]!;
    }
    // Same association as numpy: ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7)).
    const left = r0 + r1 + (r2 + r3);
    const right = r4 + r5 + (r6 + r7);
    let res = left + right;
    for (; i < n; i++) res += a[offset + i]!;
    return res;
  }
  // Split in two halves whose first part is a multiple of the unroll factor, as numpy does.
  let n2 = Math.floor(n / 2);
  n2 -= n2 % 8;
  return pairwiseSum(a, offset, n2) + pairwiseSum(a, offset + n2, n - n2);
}

// Prefix lengths up to this use NeMo Gym's exact two-pass formula (bit-identical to its Python);
// longer prefixes switch to Welford so the whole curve stays linear in the number of values.
const EXACT_PREFIX_STD_LIMIT = 256;

/**
 * out[len] = sample std (ddof=1) of xs[0..len) for len >= 2; NaN for len < 2.
 * Mirrors NeMo Gym's `sum(xs)/len` mean and `sum((x - mean) ** 2) / (len - 1)` variance.
 */
export function prefixSampleStds(xs: ArrayLike<number>): Float64Array {
  const n = xs.length;
  const out = new Float64Array(n + 1).fill(Number.NaN);
  let runningSum = 0;
  let welfordMean = 0;
  let welfordM2 = 0;
  for (let len = 1; len <= n; len++) {
    const x = xs[len - 1]!;
    runningSum += x;
    const delta = x - welfordMean;
    welfordMean += delta / len;
    welfordM2 += delta * (x - welfordMean);
    if (len < 2) continue;
    if (len <= EXACT_PREFIX_STD_LIMIT) {
      const mean = runningSum / len;
      let squares = 0;
      for (let i = 0; i < len; i++) {
        const d = xs[i]! - mean;
        squares += d * d;
      }
      out[len] = Math.sqrt(squares / (len - 1));
    } else {
      out[len] = Math.sqrt(welfordM2 / (len - 1));
    }
  }
  return out;
}

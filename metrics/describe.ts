// pandas-style column statistics (port of NeMo Gym's RewardProfiler.describe_dataframe).

import { pairwiseSum } from "./numeric.js";

/** Stats in the order NeMo Gym emits them; its histogram row is dropped before serialization. */
const STAT_NAMES = ["mean", "max", "min", "median", "std"] as const;
type StatName = (typeof STAT_NAMES)[number];

/**
 * Columnar numeric table: `columns[c][row]` is the value of column `names[c]` in that row,
 * NaN where the row has no numeric value for the column (pandas' missing value).
 */
export interface NumericTable {
  names: string[];
  columns: Float64Array[];
}

/** Per-column results of one describe call, reused across calls to keep allocation flat. */
type StatArrays = Record<StatName | "count", Float64Array>;

/** In-place ascending sort of buf[0..n); insertion sort for the small groups that dominate. */
function sortPrefix(buf: Float64Array, n: number): void {
  if (n > 32) {
    buf.subarray(0, n).sort();
    return;
  }
  for (let i = 1; i < n; i++) {
    const v = buf[i]!;
    let j = i - 1;
    while (j >= 0 && buf[j]! > v) {
      buf[j + 1] = buf[j]!;
      j--;
    }
    buf[j + 1] = v;
  }
}

/** Stats of one column over rows [start, end) into `out[*][c]`; `scratch` (>= end - start long) is work space. */
function columnStats(column: Float64Array, start: number, end: number, scratch: Float64Array, out: StatArrays, c: number): void {
  const len = end - start;
  let count = 0;
  let max = Number.NaN;
  let min = Number.NaN;
  for (let i = 0; i < len; i++) {
    const v = column[start + i]!;
    if (Number.isNaN(v)) {
      // pandas fills missing values with 0 before summing, which keeps numpy's pairwise grouping.
      scratch[i] = 0;
      continue;
    }
    scratch[i] = v;
    if (count === 0 || v > max) max = v;
    if (count === 0 || v < min) min = v;
    count++;
  }
  out.count[c] = count;
  out.max[c] = max;
  out.min[c] = min;
  out.mean[c] = Number.NaN;
  out.median[c] = Number.NaN;
  out.std[c] = Number.NaN;
  if (count === 0) return;
  const mean = pairwiseSum(scratch, 0, len) / count;
  out.mean[c] = mean;

  // pandas nanvar: two-pass, ddof=1, NaN when fewer than two values.
  if (count >= 2) {
    for (let i = 0; i < len; i++) {
      const v = column[start + i]!;
      const d = mean - v;
      scratch[i] = Number.isNaN(v) ? 0 : d * d;
    }
    out.std[c] = Math.sqrt(pairwiseSum(scratch, 0, len) / (count - 1));
  }

  // Median (numpy: mean of the two middle values for an even count).
  let n = 0;
  for (let i = 0; i < len; i++) {
    const v = column[start + i]!;
    if (!Number.isNaN(v)) scratch[n++] = v;
  }
  sortPrefix(scratch, n);
  const mid = n >> 1;
  out.median[c] = n % 2 === 1 ? scratch[mid]! : (scratch[mid - 1]! + scratch[mid]!) / 2;
}

/**
 * Returns a function writing `{stat}/{column}` entries for rows [start, end) into `target`,
 * NaN stats left out (NeMo Gym filters them). Keys and work space are prepared once per table
 * because this runs once per task. NeMo Gym's quirk is kept: only when *every* column's std is
 * NaN (in practice: a single rollout) does std become 0, and then only for columns with no
 * missing value.
 */
export function createDescriber(table: NumericTable, maxRows: number) {
  const scratch = new Float64Array(maxRows);
  const width = table.names.length;
  const out: StatArrays = {
    count: new Float64Array(width),
    mean: new Float64Array(width),
    max: new Float64Array(width),
    min: new Float64Array(width),
    median: new Float64Array(width),
    std: new Float64Array(width),
  };
  const keys = Object.fromEntries(STAT_NAMES.map((stat) => [stat, table.names.map((name) => `${stat}/${name}`)])) as Record<StatName, string[]>;
  return (start: number, end: number, target: Record<string, unknown>): void => {
    let allStdNaN = true;
    for (let c = 0; c < width; c++) {
      columnStats(table.columns[c]!, start, end, scratch, out, c);
      if (!Number.isNaN(out.std[c]!)) allStdNaN = false;
    }
    if (allStdNaN) {
      for (let c = 0; c < width; c++) if (out.count[c] === end - start) out.std[c] = 0;
    }
    for (const stat of STAT_NAMES) {
      const values = out[stat];
      const statKeys = keys[stat];
      for (let c = 0; c < width; c++) {
        const value = values[c]!;
        if (!Number.isNaN(value)) target[statKeys[c]!] = value;
      }
    }
  };
}

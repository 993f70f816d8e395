// Port of NeMo Gym's compute_pass_majority_metrics + add_avg_sample_std_dev, linear in rollouts.

import { PerKMean } from "./per-k.js";
import { prefixSampleStds } from "./numeric.js";
import type { PassAtKMetrics, ScoreFn, VerifyResult } from "./types.js";

export interface PassAtKOptions {
  /** Named scores of one rollout. Default `{ accuracy: reward }`. */
  scoreFn?: ScoreFn | undefined;
  /** Field holding the extracted answer; enables majority@k and the `no_answer` score. */
  answerKey?: string | undefined;
  /** Also emit `pass@1[avg-of-{k}]/{name}/avg_sample_std_dev` (add_avg_sample_std_dev). Default true. */
  avgSampleStdDev?: boolean | undefined;
}

interface ScoredRollout {
  scores: Map<string, number>;
  /** Identity of the extracted answer for vote counting; null = no answer. */
  answer: string | null;
}

// NeMo Gym's default raises KeyError on a rollout without reward; here such a rollout simply has
// no accuracy score (it is dropped by the number filter in scoreRollout).
const defaultScoreFn: ScoreFn = (r) => ({ accuracy: r.reward });

/**
 * Python equality for vote counting: 1 == 1.0 == True, "1" != 1. Non-scalar answers (which
 * Python would reject as unhashable) are compared by their JSON text.
 */
function answerIdentity(answer: unknown): string | null {
  if (answer === undefined || answer === null) return null;
  if (typeof answer === "string") return `s${answer}`;
  if (typeof answer === "number") return `n${answer}`;
  if (typeof answer === "boolean") return answer ? "n1" : "n0";
  return `j${JSON.stringify(answer)}`;
}

function scoreRollout(r: VerifyResult, scoreFn: ScoreFn, answerKey: string | undefined): ScoredRollout {
  const scores = new Map<string, number>();
  for (const [name, value] of Object.entries(scoreFn(r))) {
    if (typeof value === "boolean") scores.set(name, value ? 1 : 0);
    else if (typeof value === "number") scores.set(name, value);
  }
  if (answerKey === undefined) return { scores, answer: null };
  const answer = answerIdentity(r[answerKey]);
  // Injected after the score fn's own keys, so it wins on a name clash as in NeMo Gym.
  scores.set("no_answer", answer === null ? 1 : 0);
  return { scores, answer };
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

/**
 * Unbiased pass@k = 1 - C(incorrect, k) / C(n, k) for k = 1..n, via the product
 * prod_{i<k} (incorrect - i) / (n - i) (no factorials, no overflow). The ratio is kept as an exact
 * integer fraction while it fits in 2^53, so its one division rounds exactly like Python's
 * `comb(...) / comb(...)`; beyond that it continues as a float product.
 */
function binaryPassCurve(n: number, incorrect: number, emit: (k: number, value: number) => void): void {
  let num = 1;
  let den = 1;
  let exact = true;
  let ratio = 1;
  for (let k = 1; k <= n; k++) {
    if (incorrect < k) {
      emit(k, 1);
      continue;
    }
    let a = incorrect - k + 1;
    let b = n - k + 1;
    if (exact) {
      const g0 = gcd(a, b);
      a /= g0;
      b /= g0;
      const g1 = gcd(a, den);
      const g2 = gcd(b, num);
      const nextNum = (num / g2) * (a / g1);
      const nextDen = (den / g1) * (b / g2);
      if (nextNum <= Number.MAX_SAFE_INTEGER && nextDen <= Number.MAX_SAFE_INTEGER) {
        num = nextNum;
        den = nextDen;
        ratio = num / den;
      } else {
        exact = false;
        ratio = (ratio * a) / b;
      }
    } else {
      ratio = (ratio * a) / b;
    }
    emit(k, 1 - ratio);
  }
}

interface NameCurves {
  pass: Float64Array;
  avg: Float64Array;
  majority: Float64Array | null;
  /** Compacted like NeMo Gym: one entry per rollout position that has any score of this name. */
  perSample: number[];
  avgSampleStd: Float64Array | null;
}

function curvesForName(tasks: ScoredRollout[][], name: string, maxK: number, withMajority: boolean, withSampleStd: boolean): NameCurves {
  const pass = new PerKMean(maxK);
  const avg = new PerKMean(maxK);
  const majority = new PerKMean(maxK);
  const sampleStd = new PerKMean(maxK);
  const runSum = new Float64Array(maxK);
  const runCount = new Float64Array(maxK);

  for (const task of tasks) {
    const length = task.length;
    const values: number[] = [];
    for (const rollout of task) {
      const value = rollout.scores.get(name);
      if (value !== undefined) values.push(value);
    }
    const stds = withSampleStd && values.length >= 2 ? prefixSampleStds(values) : null;
    const votes = withMajority ? new Map<string, number>() : null;
    let seen = 0;
    let sum = 0;
    let maxVotes = 0;
    let tiedSum = 0;
    let tiedCount = 0;

    for (let j = 0; j < length; j++) {
      const rollout = task[j]!;
      const k = j + 1;
      const value = rollout.scores.get(name);
      if (value !== undefined) {
        seen++;
        sum += value;
        runSum[j]! += value;
        runCount[j]! += 1;
        if (votes && rollout.answer !== null) {
          // Votes are on (answer, score) pairs, as NeMo Gym's Counter is.
          const pair = `${rollout.answer}\u0000${value}`;
          const n = (votes.get(pair) ?? 0) + 1;
          votes.set(pair, n);
          if (n > maxVotes) {
            maxVotes = n;
            tiedSum = value;
            tiedCount = 1;
          } else if (n === maxVotes) {
            tiedSum += value;
            tiedCount++;
          }
        }
      }
      if (seen > 0) avg.add(k, sum / seen);
      // Ties are split evenly; a task with no valid answer yet counts as 0.
      if (votes) majority.add(k, tiedCount > 0 ? tiedSum / tiedCount : 0);
      if (stds && seen >= 2) sampleStd.add(k, stds[seen]!);
    }

    // Shorter tasks keep contributing their full-task value to larger k (NeMo Gym slices [:k]).
    if (seen > 0) avg.addFrom(length + 1, sum / seen);
    if (votes) majority.addFrom(length + 1, tiedCount > 0 ? tiedSum / tiedCount : 0);
    if (stds) sampleStd.addFrom(length + 1, stds[seen]!);

    // pass@k only counts tasks with at least k scored rollouts (no tail).
    if (values.length === 0) continue;
    if (values.every((v) => v === 0 || v === 1)) {
      const incorrect = values.filter((v) => v === 0).length;
      binaryPassCurve(values.length, incorrect, (kk, p) => pass.add(kk, p));
    } else {
      // Continuous scores: max of the first k (Python's max keeps the first maximum).
      let best = values[0]!;
      values.forEach((v, i) => {
        if (v > best) best = v;
        pass.add(i + 1, best);
      });
    }
  }

  const perSample: number[] = [];
  for (let j = 0; j < maxK; j++) if (runCount[j]! > 0) perSample.push((100 * runSum[j]!) / runCount[j]!);

  return {
    pass: pass.means(100),
    avg: avg.means(100),
    majority: withMajority ? majority.means(100) : null,
    perSample,
    // NeMo Gym leaves this one on the raw score scale (no * 100).
    avgSampleStd: withSampleStd ? sampleStd.means(1) : null,
  };
}

/**
 * pass@k family over tasks (tasks[i] = rollouts of task i, in the order they count as "first k"):
 * `pass@{k}/{name}`, `pass@1[avg-of-{k}]/{name}`, `majority@{k}/{name}` (with answerKey),
 * `per_sample_aggregate`, `pass@1[avg-of-{k}]/{name}/std_dev_across_runs|std_err_across_runs`
 * and `.../avg_sample_std_dev`. Percentages (0-100) except avg_sample_std_dev, as in NeMo Gym.
 */
export function passAtK(tasks: readonly (readonly VerifyResult[])[], options: PassAtKOptions = {}): PassAtKMetrics {
  const metrics: PassAtKMetrics = {};
  writePassAtK(metrics, tasks, options);
  return metrics;
}

/**
 * passAtK writing straight into `metrics` (in NeMo Gym's key order). aggregateMetrics uses this
 * to skip copying what can be 100k+ keys when max_k is large.
 */
export function writePassAtK(metrics: Record<string, unknown>, tasks: readonly (readonly VerifyResult[])[], options: PassAtKOptions = {}): void {
  if (tasks.length === 0) return;
  const { scoreFn = defaultScoreFn, answerKey, avgSampleStdDev = true } = options;
  const scored = tasks.map((rollouts) => rollouts.map((r) => scoreRollout(r, scoreFn, answerKey)));
  let maxK = 0;
  for (const t of scored) if (t.length > maxK) maxK = t.length;

  const nameSet = new Set<string>();
  for (const t of scored) for (const r of t) for (const name of r.scores.keys()) nameSet.add(name);
  const names = [...nameSet].sort();
  const withSampleStd = avgSampleStdDev && maxK > 1;
  const curves = names.map((name) => curvesForName(scored, name, maxK, answerKey !== undefined, withSampleStd));

  for (let k = 1; k <= maxK; k++) {
    names.forEach((name, i) => {
      const c = curves[i]!;
      if (!Number.isNaN(c.pass[k]!)) metrics[`pass@${k}/${name}`] = c.pass[k]!;
      if (!Number.isNaN(c.avg[k]!)) metrics[`pass@1[avg-of-${k}]/${name}`] = c.avg[k]!;
      if (c.majority) metrics[`majority@${k}/${name}`] = c.majority[k]!;
    });
  }

  const perSampleAggregate: Record<string, number[]> = {};
  names.forEach((name, i) => {
    if (curves[i]!.perSample.length > 0) perSampleAggregate[name] = curves[i]!.perSample;
  });
  metrics["per_sample_aggregate"] = perSampleAggregate;

  // Spread of the per-run pass@1 values; NeMo Gym takes the first k entries of the compacted list.
  const runStds = names.map((_, i) => prefixSampleStds(curves[i]!.perSample));
  for (let k = 2; k <= maxK; k++) {
    names.forEach((name, i) => {
      const len = Math.min(k, curves[i]!.perSample.length);
      if (len < 2) return;
      const std = runStds[i]![len]!;
      metrics[`pass@1[avg-of-${k}]/${name}/std_dev_across_runs`] = std;
      metrics[`pass@1[avg-of-${k}]/${name}/std_err_across_runs`] = std / Math.sqrt(len);
    });
  }

  if (withSampleStd) {
    for (let k = 2; k <= maxK; k++) {
      names.forEach((name, i) => {
        const v = curves[i]!.avgSampleStd![k]!;
        if (!Number.isNaN(v)) metrics[`pass@1[avg-of-${k}]/${name}/avg_sample_std_dev`] = v;
      });
    }
  }
}

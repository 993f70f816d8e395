// Which of an environment's NeMo Gym metrics the CLI prints, and on what scale: the files keep NeMo Gym's numbers as they are.
import type { AggregateMetricsAnswer } from "./collect-output.js";

/** What the printer knows of the collection beside its metrics. */
export interface PrintFacts {
  /** The repeats asked for: pass@k is printed at this k (NeMo Gym writes every k up to the most rollouts of a task). */
  repeats?: number | undefined;
  /** The input rows' own fields: a numeric one (an id, a tolerance) is averaged by NeMo Gym but is no result to print. */
  inputFields?: readonly string[] | undefined;
}

/** `pass@4/accuracy`, `pass@1[avg-of-4]/accuracy`, `majority@4/accuracy`: the k and how to write the key at another k. */
const PASS_FAMILY = /^(pass@|pass@1\[avg-of-|majority@)(\d+)(\]?)\/(.+)$/;
const STAT_SUFFIX = /\/(std_dev_across_runs|std_err_across_runs|avg_sample_std_dev)$/;

interface PassKey {
  k: number;
  at(k: number): string;
  name: string;
}

export function passKey(key: string): PassKey | undefined {
  const m = PASS_FAMILY.exec(key);
  if (!m || STAT_SUFFIX.test(key)) return undefined;
  const [, head = "", k = "", close = "", name = ""] = m;
  return { k: Number(k), at: (other) => `${head}${other}${close}/${name}`, name };
}

function number(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

export function formatNumber(value: unknown): string {
  if (typeof value !== "number") return value === undefined || value === null ? "-" : String(value);
  return Number.isInteger(value) ? String(value) : value.toFixed(4);
}

/**
 * NeMo Gym writes pass@k, pass@1[avg-of-k] and majority@k as `100 × score` ("percentages (0-100)" in its docstring): a
 * share of tasks solved only when every score lies in 0..1. Blackjack's rewards (-1..1) give -100, a multi-reward sum
 * 200. So a value is printed as a percentage when the score's range (its `min/` and `max/` over the rollouts; the
 * default score `accuracy` is the reward) is within 0..1, and otherwise divided back to the score's own scale and
 * labelled a score.
 */
export function formatPass(value: unknown, agentMetrics: Record<string, unknown>, scoreName: string): string {
  const v = number(value);
  if (v === undefined) return formatNumber(value);
  const field = scoreName === "accuracy" ? "reward" : scoreName;
  const min = number(agentMetrics[`min/${field}`]);
  const max = number(agentMetrics[`max/${field}`]);
  const share = min !== undefined && max !== undefined ? min >= 0 && max <= 1 : v >= 0 && v <= 100;
  return share ? `${formatNumber(v)}%` : `${formatNumber(v / 100)} (score)`;
}

/** The k to print: the repeats asked for when the metrics hold it, else the highest k they hold. */
export function printedK(agentMetrics: Record<string, unknown>, repeats: number | undefined): number | undefined {
  let highest: number | undefined;
  let hasRepeats = false;
  for (const key of Object.keys(agentMetrics)) {
    const parsed = passKey(key);
    if (!parsed) continue;
    if (parsed.k === repeats) hasRepeats = true;
    if (highest === undefined || parsed.k > highest) highest = parsed.k;
  }
  return hasRepeats ? repeats : highest;
}

/**
 * Fields that look like the task's own when the rows are not at hand (`jobs status`): the same in every rollout of each
 * task that has two or more, and not the same across tasks (an id). The reward is always a result.
 */
export function taskLikeFields(metrics: AggregateMetricsAnswer): string[] {
  const groups = metrics.group_level_metrics.filter((g) => (number(g.num_rollouts) ?? 0) >= 2);
  if (groups.length < 2) return [];
  const fields = Object.keys(metrics.agent_metrics)
    .filter((k) => k.startsWith("mean/"))
    .map((k) => k.slice("mean/".length))
    .filter((f) => f !== "reward");
  return fields.filter((f) => {
    const values = new Set<number>();
    for (const g of groups) {
      const min = number(g[`min/${f}`]);
      if (min === undefined || min !== number(g[`max/${f}`])) return false;
      values.add(min);
    }
    return values.size > 1;
  });
}

/** The printed rows of one environment, in the order of its key metrics: [label, cell]. */
export function printedMetrics(metrics: AggregateMetricsAnswer, facts: PrintFacts = {}): [string, string][] {
  const agent = metrics.agent_metrics;
  const hidden = new Set(facts.inputFields ?? taskLikeFields(metrics));
  const k = printedK(agent, facts.repeats);
  const rows: [string, string][] = [];
  const seen = new Set<string>();
  for (const key of Object.keys(metrics.key_metrics)) {
    if (key.startsWith("mean/") && hidden.has(key.slice("mean/".length))) continue;
    const parsed = passKey(key);
    if (!parsed) {
      rows.push([key, formatNumber(metrics.key_metrics[key])]);
      continue;
    }
    // The environment chose this pass@k family; it is printed at the k the repeats give.
    const at = k !== undefined && parsed.at(k) in agent ? parsed.at(k) : key;
    if (seen.has(at)) continue;
    seen.add(at);
    rows.push([at, formatPass(agent[at] ?? metrics.key_metrics[key], agent, parsed.name)]);
  }
  return rows;
}

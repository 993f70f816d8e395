// What a scenario hands to bench/run.ts: its figures (each with the target it is held to), time series for the chart, details.
import { writeFileSync } from "node:fs";

export type Comparison = ">=" | "<=" | "<" | ">" | "=";

export interface Figure {
  /** Stable key, e.g. "efficiency.jobs.1-tool.rollouts_per_s". */
  id: string;
  label: string;
  /** null: not measured (the note says why). */
  value: number | null;
  unit: string;
  target?: { op: Comparison; value: number };
  note?: string;
}

export interface Point {
  /** Seconds since the scenario's workload began. */
  t: number;
  v: number;
}

export interface ScenarioReport {
  scenario: string;
  title: string;
  /** Wall time of the scenario, start-up included. */
  seconds: number;
  figures: Figure[];
  /** Named time series (completions, memory per process, requests in flight…). */
  series?: Record<string, Point[]>;
  details?: Record<string, unknown>;
}

export function meets(figure: Figure): boolean | undefined {
  if (!figure.target || figure.value === null) return undefined;
  const { op, value } = figure.target;
  const x = figure.value;
  return op === ">=" ? x >= value : op === "<=" ? x <= value : op === "<" ? x < value : op === ">" ? x > value : x === value;
}

/** A scenario process writes its report where bench/run.ts asked (BENCH_REPORT), or prints it when run alone. */
export function emit(report: ScenarioReport): void {
  const file = process.env.BENCH_REPORT;
  if (file) writeFileSync(file, `${JSON.stringify(report)}\n`);
  else process.stdout.write(`${JSON.stringify(report.figures, null, 2)}\n`);
}

/** A progress line, prefixed with the scenario's name and the seconds since it began. */
export function progress(scenario: string, started: number): (message: string) => void {
  return (message) => process.stdout.write(`  [${scenario} ${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${message}\n`);
}

export function quick(): boolean {
  return process.argv.includes("--quick") || process.env.BENCH_QUICK === "1";
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export const median = (xs: readonly number[]): number =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );

// The metrics table printed at the end of a collection: one column per environment, NeMo Gym's key metrics as rows.
import type { AggregateMetricsAnswer } from "./collect-direct.js";

export interface TableColumn {
  environment: string;
  rollouts: number;
  failed: number;
  metrics?: AggregateMetricsAnswer;
}

function format(value: unknown): string {
  if (typeof value !== "number") return value === undefined ? "-" : String(value);
  return Number.isInteger(value) ? String(value) : value.toFixed(4);
}

/** Rows: counts, every key metric any column has (mean/* first), then pass@k. */
export function metricsTable(columns: TableColumn[]): string {
  const keys = new Set<string>();
  for (const column of columns) for (const key of Object.keys(column.metrics?.key_metrics ?? {})) keys.add(key);
  const ordered = [...keys].sort((a, b) => Number(b.startsWith("mean/")) - Number(a.startsWith("mean/")) || a.localeCompare(b));
  const rows: string[][] = [
    ["metric", ...columns.map((c) => c.environment)],
    ["rollouts", ...columns.map((c) => String(c.rollouts))],
    ["failed", ...columns.map((c) => String(c.failed))],
    ...ordered.map((key) => [key, ...columns.map((c) => format(c.metrics?.key_metrics[key]))]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const line = (row: string[]) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  ");
  return [line(rows[0]!), widths.map((w) => "-".repeat(w)).join("  "), ...rows.slice(1).map(line)].join("\n");
}

/** One row per environment: the numbers to read first; every metric is in each environment's metrics.json. */
export function summaryTable(columns: TableColumn[]): string {
  const passKey = (metrics: Record<string, unknown>, pattern: RegExp) =>
    Object.keys(metrics)
      .filter((k) => pattern.test(k))
      .sort((a, b) => b.length - a.length || b.localeCompare(a))[0];
  const rows: string[][] = [["environment", "rollouts", "failed", "mean/reward", "pass@1 (avg of k)", "pass@k"]];
  for (const column of columns) {
    const agent = column.metrics?.agent_metrics ?? {};
    const avg = passKey(agent, /^pass@1\[avg-of-\d+\]\/accuracy$/);
    const best = passKey(agent, /^pass@\d+\/accuracy$/);
    rows.push([
      column.environment,
      String(column.rollouts),
      String(column.failed),
      format(agent["mean/reward"]),
      avg ? `${format(agent[avg])}%` : "-",
      best ? `${format(agent[best])}% (${best.split("/")[0]})` : "-",
    ]);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const line = (row: string[]) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  ");
  return [line(rows[0]!), widths.map((w) => "-".repeat(w)).join("  "), ...rows.slice(1).map(line)].join("\n");
}

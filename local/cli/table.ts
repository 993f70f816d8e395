// The metrics table printed at the end of a collection: one column per environment, NeMo Gym's key metrics as rows.
import type { AggregateMetricsAnswer } from "./collect-direct.js";
import { formatNumber, formatPass, passKey, printedK, printedMetrics, type PrintFacts } from "./metric-rows.js";

export interface TableColumn extends PrintFacts {
  environment: string;
  rollouts: number;
  /** Unknown where only the job's totals are (a job of several environments): printed as "-". */
  failed?: number | undefined;
  metrics?: AggregateMetricsAnswer | undefined;
}

/** Rows under a header and a rule: the first column left-aligned, the others right-aligned. */
export function layout(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const line = (row: string[]) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  ");
  return [line(rows[0]!), widths.map((w) => "-".repeat(w)).join("  "), ...rows.slice(1).map(line)].join("\n");
}

/** Rows: counts, every printed key metric any column has (mean/* first), then pass@k. */
export function metricsTable(columns: TableColumn[]): string {
  const cells = columns.map((c) => new Map(c.metrics ? printedMetrics(c.metrics, c) : []));
  const keys = new Set<string>();
  for (const column of cells) for (const key of column.keys()) keys.add(key);
  const ordered = [...keys].sort((a, b) => Number(b.startsWith("mean/")) - Number(a.startsWith("mean/")) || a.localeCompare(b));
  return layout([
    ["metric", ...columns.map((c) => c.environment)],
    ["rollouts", ...columns.map((c) => String(c.rollouts))],
    ["failed", ...columns.map((c) => formatNumber(c.failed))],
    ...ordered.map((key) => [key, ...cells.map((column) => column.get(key) ?? "-")]),
  ]);
}

/** One row per environment: the numbers to read first; every metric is in each environment's metrics.json. */
export function summaryTable(columns: TableColumn[]): string {
  const rows: string[][] = [["environment", "rollouts", "failed", "mean/reward", "pass@1 (avg of k)", "pass@k"]];
  for (const column of columns) {
    const agent = column.metrics?.agent_metrics ?? {};
    const k = printedK(agent, column.repeats);
    const avg = `pass@1[avg-of-${k}]/accuracy`;
    const best = `pass@${k}/accuracy`;
    rows.push([
      column.environment,
      String(column.rollouts),
      formatNumber(column.failed),
      formatNumber(agent["mean/reward"]),
      k !== undefined && avg in agent ? formatPass(agent[avg], agent, passKey(avg)!.name) : "-",
      k !== undefined && best in agent ? `${formatPass(agent[best], agent, passKey(best)!.name)} (pass@${k})` : "-",
    ]);
  }
  return layout(rows);
}

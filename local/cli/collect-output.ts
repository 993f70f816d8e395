// What a collection leaves: the sorted rollouts, the failures, metrics per environment and NeMo Gym's _aggregate_metrics.json.
import { existsSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { ROLLOUT_INDEX, TASK_INDEX } from "../../protocol/index.js";
import { environmentFromAgentName } from "./agent-ref.js";
import type { DatasetProblem } from "./dataset.js";
import type { GatewayClient } from "./gateway-client.js";
import { rolloutKey } from "./collect-plan.js";
import { fileLines } from "./row-check.js";

export interface AggregateMetricsAnswer {
  agent_metrics: Record<string, unknown>;
  key_metrics: Record<string, unknown>;
  group_level_metrics: Record<string, unknown>[];
}

export interface CollectSummary {
  rollouts: number;
  failed: number;
  problems: DatasetProblem[];
  /** Per environment: its counts and its /aggregate_metrics answer. */
  environments: Record<string, { rollouts: number; failed: number; metrics?: AggregateMetricsAnswer; repeats?: number; inputFields?: string[] }>;
  files: { rollouts: string; failures?: string; metrics: string; aggregateMetrics: string };
  /** Rollouts kept from an earlier run of the same collection (--resume). */
  resumed: number;
}

export type RecordLine = Record<string, unknown>;

export function sidecarPath(output: string, suffix: string): string {
  return output.replace(/\.jsonl$/, "") + suffix;
}

/** NeMo Gym's name for the metrics file: `<stem>_aggregate_metrics.json` beside the rollouts. */
export function aggregateMetricsPath(output: string): string {
  return sidecarPath(output, "_aggregate_metrics.json");
}

/** Sort key: task, then repeat, as NeMo Gym orders its rollouts. */
export function byIndex(a: RecordLine, b: RecordLine): number {
  return Number(a[TASK_INDEX]) - Number(b[TASK_INDEX]) || Number(a[ROLLOUT_INDEX]) - Number(b[ROLLOUT_INDEX]);
}

/** The rollouts an earlier run wrote to the output (NeMo Gym's resume_from_cache reads them the same way). */
export async function readPrevious(output: string): Promise<{ records: RecordLine[]; done: Set<string> }> {
  const records: RecordLine[] = [];
  if (!existsSync(output)) return { records, done: new Set() };
  for await (const { text } of fileLines(output)) {
    try {
      records.push(JSON.parse(text) as RecordLine);
    } catch {
      // A line cut short by an interrupted write is not a rollout; it is collected again.
    }
  }
  return { records, done: new Set(records.map((r) => rolloutKey(Number(r[TASK_INDEX]), Number(r[ROLLOUT_INDEX])))) };
}

export function writeLines(file: string, records: RecordLine[]): void {
  const temp = `${file}.tmp`;
  writeFileSync(temp, records.map((r) => `${JSON.stringify(r)}\n`).join(""));
  renameSync(temp, file);
}

export function environmentOf(record: RecordLine, known: string[], fallback?: string): string {
  const name = (record.agent_ref as { name?: string } | undefined)?.name;
  return (
    (name ? environmentFromAgentName(name, known) : undefined) ??
    (typeof record.environment === "string" ? record.environment : undefined) ??
    fallback ??
    "unknown"
  );
}

export interface FinishInput {
  /** A gateway answers /aggregate_metrics for what the job did not; another backend (AWS) always gives the job's metrics. */
  client: Pick<GatewayClient, "url"> & Partial<Pick<GatewayClient, "json">>;
  output: string;
  records: RecordLine[];
  failures: RecordLine[];
  previous: RecordLine[];
  problems: DatasetProblem[];
  known: string[];
  environment?: string;
  /** The job's own metrics, when its indices are the input's and nothing was resumed. */
  jobMetrics?: Record<string, AggregateMetricsAnswer>;
  /** The output is already on disk (a job's results streamed there): read it back line by line, never whole. */
  alreadyWritten?: boolean;
}

async function* recordsOf(input: FinishInput, all: RecordLine[]): AsyncGenerator<RecordLine> {
  if (!input.alreadyWritten) {
    yield* all;
    return;
  }
  for await (const { text } of fileLines(input.output)) yield JSON.parse(text) as RecordLine;
}

export async function finishCollection(input: FinishInput): Promise<CollectSummary> {
  const all = input.alreadyWritten ? [] : [...input.previous, ...input.records].sort(byIndex);
  if (!input.alreadyWritten) writeLines(input.output, all);
  const failuresFile = sidecarPath(input.output, ".failures.jsonl");
  if (input.failures.length) writeLines(failuresFile, input.failures.sort(byIndex));
  else if (existsSync(failuresFile)) rmSync(failuresFile);

  // Per environment: a count, the agent the rows named, and the records only where the job's metrics do not already stand.
  const byEnvironment = new Map<string, { count: number; agent?: string; records: RecordLine[] }>();
  let total = 0;
  for await (const record of recordsOf(input, all)) {
    total++;
    const name = environmentOf(record, input.known, input.environment);
    let entry = byEnvironment.get(name);
    if (!entry) {
      entry = { count: 0, agent: (record.agent_ref as { name?: string } | undefined)?.name, records: [] };
      byEnvironment.set(name, entry);
    }
    entry.count++;
    if (!input.jobMetrics?.[name]) entry.records.push(record);
  }
  const environments: CollectSummary["environments"] = {};
  for (const failure of input.failures) {
    const name = environmentOf(failure, input.known, input.environment);
    environments[name] ??= { rollouts: 0, failed: 0 };
    environments[name].failed++;
  }
  const entries: (AggregateMetricsAnswer & { agent_ref: { name: string } })[] = [];
  for (const [name, entry] of byEnvironment) {
    environments[name] ??= { rollouts: 0, failed: 0 };
    environments[name].rollouts = entry.count;
    const metrics = input.jobMetrics?.[name] ?? (await aggregate(input.client, name, entry.records));
    environments[name].metrics = metrics;
    entries.push({ agent_ref: { name: entry.agent ?? `${name}_simple_agent` }, ...metrics });
  }
  const metricsFile = sidecarPath(input.output, ".metrics.json");
  writeFileSync(metricsFile, `${JSON.stringify(Object.fromEntries(Object.entries(environments).map(([n, e]) => [n, e.metrics ?? null])), null, 2)}\n`);
  const aggregateFile = aggregateMetricsPath(input.output);
  writeFileSync(aggregateFile, `${JSON.stringify(entries, null, 2)}\n`);
  return {
    rollouts: total,
    failed: input.failures.length,
    problems: input.problems,
    environments,
    resumed: input.previous.length,
    files: { rollouts: input.output, ...(input.failures.length ? { failures: failuresFile } : {}), metrics: metricsFile, aggregateMetrics: aggregateFile },
  };
}

/** The environment's own /aggregate_metrics over the records; the conversation is left out, only numbers and usage travel. */
function aggregate(client: Partial<Pick<GatewayClient, "json" | "url">>, environment: string, records: RecordLine[]): Promise<AggregateMetricsAnswer> {
  if (!client.json) return Promise.reject(new Error(`the job at ${client.url} gave no metrics for ${environment}`));
  const verifyResponses = records.map(({ responses_create_params: _p, response, ...rest }) => ({
    ...rest,
    response: { usage: (response as { usage?: unknown } | undefined)?.usage ?? null },
  }));
  return client.json<AggregateMetricsAnswer>(`/v1/environments/${environment}/aggregate_metrics`, {
    method: "POST",
    body: JSON.stringify({ verify_responses: verifyResponses }),
  });
}

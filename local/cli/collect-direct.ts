// Rollout collection over /run (`--direct`): rows × repeats through the gateway, records written as they finish, then metrics.
import { createWriteStream, existsSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { once } from "node:events";
import { randomBytes } from "node:crypto";
import { ROLLOUT_ID, ROLLOUT_INDEX, TASK_INDEX } from "../../protocol/index.js";
import { environmentFromAgentName } from "../../functions/agent/resolve.js";
import { readDataset, type DatasetProblem } from "./dataset.js";
import type { GatewayClient } from "./gateway-client.js";
import { runPool } from "./pool.js";
import { silentProgress, type Progress } from "./progress.js";

export interface CollectOptions {
  input: string;
  output: string;
  environment?: string;
  numRepeats?: number;
  limit?: number;
  concurrency?: number;
  progress?: Progress;
  signal?: AbortSignal;
}

export interface CollectSummary {
  rollouts: number;
  failed: number;
  problems: DatasetProblem[];
  /** Per environment: its counts and its /aggregate_metrics answer. */
  environments: Record<string, { rollouts: number; failed: number; metrics?: AggregateMetricsAnswer }>;
  files: { rollouts: string; failures?: string; metrics: string };
}

export interface AggregateMetricsAnswer {
  agent_metrics: Record<string, unknown>;
  key_metrics: Record<string, unknown>;
  group_level_metrics: Record<string, unknown>[];
}

export function sidecarPath(output: string, suffix: string): string {
  return output.replace(/\.jsonl$/, "") + suffix;
}

type Job = { environment: string; row: Record<string, unknown>; taskIndex: number; rolloutIndex: number };

/** Sort key: task, then repeat, as NeMo Gym orders its rollouts. */
function byIndex(a: Record<string, unknown>, b: Record<string, unknown>): number {
  return Number(a[TASK_INDEX]) - Number(b[TASK_INDEX]) || Number(a[ROLLOUT_INDEX]) - Number(b[ROLLOUT_INDEX]);
}

async function writeLines(file: string, records: Record<string, unknown>[]): Promise<void> {
  const temp = `${file}.tmp`;
  writeFileSync(temp, records.map((r) => `${JSON.stringify(r)}\n`).join(""));
  renameSync(temp, file);
}

export async function collectDirect(client: GatewayClient, options: CollectOptions): Promise<CollectSummary> {
  const repeats = options.numRepeats ?? 1;
  const { entries, problems } = await readDataset(options.input, options.limit);
  const known = await client.environments();
  if (options.environment && !known.includes(options.environment)) {
    throw new Error(`no environment "${options.environment}" at ${client.url} (known: ${known.join(", ")})`);
  }

  const runId = randomBytes(4).toString("hex");
  const jobs: Job[] = [];
  for (const entry of entries) {
    const agentName = entry.row.agent_ref?.name;
    const environment = options.environment ?? (agentName ? environmentFromAgentName(agentName, known) : undefined);
    if (!environment) {
      problems.push({
        file: options.input,
        line: entry.line,
        field: "agent_ref.name",
        message: agentName ? `"${agentName}" names no environment (known: ${known.join(", ")})` : "no agent_ref: pass --environment",
      });
      continue;
    }
    for (let rolloutIndex = 0; rolloutIndex < repeats; rolloutIndex++) {
      const row = { ...entry.row, [TASK_INDEX]: entry.taskIndex, [ROLLOUT_INDEX]: rolloutIndex, [ROLLOUT_ID]: `${runId}-${entry.taskIndex}-${rolloutIndex}` };
      jobs.push({ environment, row, taskIndex: entry.taskIndex, rolloutIndex });
    }
  }

  const failuresFile = sidecarPath(options.output, ".failures.jsonl");
  const records: Record<string, unknown>[] = [];
  const failures: Record<string, unknown>[] = [];
  // Records go to disk as they finish: an interrupted collection keeps what it had.
  const out = createWriteStream(options.output, { flags: "w" });
  let drained: Promise<unknown> | undefined;
  const progress = options.progress ?? silentProgress;
  progress.start(jobs.length);
  try {
    await runPool(jobs, options.concurrency ?? 16, async (job) => {
      if (options.signal?.aborted) return;
      const result = await client.run(job.row, job.environment, options.signal);
      // A verifier's own failure (NeMo Gym's judge_failed) goes to the failures, as NeMo Gym's collection routes it.
      if ("_ng_failure_class" in result && typeof result._ng_failure_class === "string") {
        const failureClass = result._ng_failure_class;
        failures.push({
          ...result,
          failure_class: failureClass,
          message: String(result._ng_failure_judge_error ?? failureClass),
          environment: job.environment,
        });
        progress.tick(true);
        return;
      }
      if ("failure_class" in result && !("reward" in result)) {
        failures.push({
          [TASK_INDEX]: job.taskIndex,
          [ROLLOUT_INDEX]: job.rolloutIndex,
          [ROLLOUT_ID]: job.row[ROLLOUT_ID],
          environment: job.environment,
          ...result,
          row: job.row,
        });
        progress.tick(true);
        return;
      }
      records.push(result);
      // One shared wait for the stream to drain, however many rollouts finish meanwhile.
      if (!out.write(`${JSON.stringify(result)}\n`)) await (drained ??= once(out, "drain").finally(() => (drained = undefined)));
      progress.tick(false);
    });
  } finally {
    progress.stop();
    out.end();
    await once(out, "close");
  }

  await writeLines(options.output, records.sort(byIndex));
  if (failures.length) await writeLines(failuresFile, failures.sort(byIndex));
  else if (existsSync(failuresFile)) rmSync(failuresFile);

  const byEnvironment: CollectSummary["environments"] = {};
  const environmentOf = new Map(jobs.map((job) => [job.row[ROLLOUT_ID], job.environment]));
  for (const environment of new Set(jobs.map((job) => job.environment))) {
    const mine = records.filter((r) => environmentOf.get(r[ROLLOUT_ID]) === environment);
    const failed = failures.filter((f) => f.environment === environment).length;
    byEnvironment[environment] = { rollouts: mine.length, failed };
    if (mine.length === 0) continue;
    // Metrics need the numbers, not the conversation: send the record without its long text fields.
    const verifyResponses = mine.map(({ responses_create_params: _p, response, ...rest }) => ({
      ...rest,
      response: { usage: (response as { usage?: unknown } | undefined)?.usage ?? null },
    }));
    byEnvironment[environment].metrics = await client.json<AggregateMetricsAnswer>(`/v1/environments/${environment}/aggregate_metrics`, {
      method: "POST",
      body: JSON.stringify({ verify_responses: verifyResponses }),
    });
  }
  const metricsFile = sidecarPath(options.output, ".metrics.json");
  const metrics = Object.fromEntries(Object.entries(byEnvironment).map(([name, e]) => [name, e.metrics ?? null]));
  writeFileSync(metricsFile, `${JSON.stringify(metrics, null, 2)}\n`);

  return {
    rollouts: records.length,
    failed: failures.length,
    problems,
    environments: byEnvironment,
    files: { rollouts: options.output, ...(failures.length ? { failures: failuresFile } : {}), metrics: metricsFile },
  };
}

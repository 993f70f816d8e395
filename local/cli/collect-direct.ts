// Rollout collection over /run (`--direct`): the plan's rollouts through the gateway, records written as they finish.
import { createWriteStream } from "node:fs";
import { once } from "node:events";
import { randomBytes } from "node:crypto";
import pLimit from "p-limit";
import { ROLLOUT_ID, ROLLOUT_INDEX, TASK_INDEX } from "../../protocol/index.js";
import { type CollectOptions, collectWith, PartialCollection, type RunResult } from "./collect.js";
import type { CollectSummary, RecordLine } from "./collect-output.js";
import type { Plan } from "./collect-plan.js";
import type { GatewayClient } from "./gateway-client.js";
import { silentProgress } from "./progress.js";
import { fileLines } from "./row-check.js";

export type { AggregateMetricsAnswer, CollectSummary } from "./collect-output.js";
export { sidecarPath } from "./collect-output.js";

export interface DirectOptions extends CollectOptions {
  concurrency?: number;
}

type Rollout = { environment: string; row: RecordLine; task: number; rollout: number };

/** The plan's rollouts as /run bodies; the sampling overrides merged here (the job path has the gateway merge them). */
async function rolloutsOf(plan: Plan, options: DirectOptions): Promise<Rollout[]> {
  const runId = randomBytes(4).toString("hex");
  const rollouts: Rollout[] = [];
  let k = 0;
  for await (const { text } of fileLines(plan.uploadFile)) {
    const base = JSON.parse(text) as RecordLine & { responses_create_params: Record<string, unknown> };
    const row = options.overrides ? { ...base, responses_create_params: { ...base.responses_create_params, ...options.overrides } } : base;
    const task = plan.tasks[k]!;
    for (let repeat = 0; repeat < plan.numRepeats; repeat++) {
      const rollout = plan.expanded ? plan.rollouts[k]! : repeat;
      rollouts.push({
        environment: plan.environments[k]!,
        task,
        rollout,
        row: { ...row, [TASK_INDEX]: task, [ROLLOUT_INDEX]: rollout, [ROLLOUT_ID]: `${runId}-${task}-${rollout}` },
      });
    }
    k++;
  }
  return rollouts;
}

export async function runDirect(client: GatewayClient, plan: Plan, options: DirectOptions): Promise<RunResult> {
  const rollouts = await rolloutsOf(plan, options);
  const records: RecordLine[] = [];
  const failures: RecordLine[] = [];
  // Records go to the output as they finish (after a resumed run's): even a killed collection keeps what it had.
  const out = createWriteStream(options.output, { flags: options.resume ? "a" : "w" });
  let drained: Promise<unknown> | undefined;
  const progress = options.progress ?? silentProgress;
  progress.start(rollouts.length);
  try {
    await pLimit(options.concurrency ?? 16).map(rollouts, async (job) => {
      if (options.signal?.aborted) return;
      const result = await client.run(job.row, job.environment, options.signal, options.toolNames);
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
        if (result.failure_class === "cancelled") return;
        failures.push({
          [TASK_INDEX]: job.task,
          [ROLLOUT_INDEX]: job.rollout,
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
  if (options.signal?.aborted)
    throw new PartialCollection(new Error("interrupted: the rollouts finished so far are written; --resume collects the rest"), records);
  return { records, failures, problems: [] };
}

export function collectDirect(client: GatewayClient, options: DirectOptions): Promise<CollectSummary> {
  return collectWith(client, options, runDirect);
}

// A collection from start to end: plan the rollouts, run them (a job, or --direct), merge with a resumed run, write what it leaves.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { ROLLOUT_INDEX, TASK_INDEX } from "../../protocol/index.js";
import type { DatasetProblem } from "./dataset.js";
import { buildPlan, type Plan, type RepeatsSpec } from "./collect-plan.js";
import { type AggregateMetricsAnswer, type CollectSummary, byIndex, finishCollection, readPrevious, type RecordLine, writeLines } from "./collect-output.js";
import type { GatewayClient } from "./gateway-client.js";
import type { LoadedPromptConfig } from "./prompt-config.js";
import type { Progress } from "./progress.js";

export interface CollectOptions {
  input: string;
  output: string;
  environment?: string;
  numRepeats?: RepeatsSpec;
  limit?: number;
  promptConfig?: LoadedPromptConfig;
  /** Shallow-merged into each row's responses_create_params (temperature, top_p, max_output_tokens…). */
  overrides?: Record<string, unknown>;
  /** NeMo Gym's num_repeats_add_seed: metadata.extra_body.seed = the rollout index. */
  addSeed?: boolean;
  /** The agent's tool_names: `mcp` for rows meant for an MCP client (the model is offered the environment's listing). */
  toolNames?: "plain" | "mcp";
  /** Keep the rollouts already in the output and collect only the missing ones (NeMo Gym's resume_from_cache). */
  resume?: boolean;
  progress?: Progress;
  signal?: AbortSignal;
}

/** What a runner returns: records already carrying the input's task and rollout indices. */
export interface RunResult {
  records: RecordLine[];
  failures: RecordLine[];
  problems: DatasetProblem[];
  jobMetrics?: Record<string, AggregateMetricsAnswer>;
  /** Set when the runner already wrote the output itself (a job whose indices are the input's, streamed to disk). */
  written?: { rollouts: number };
}

/** What collection asks of any backend before it runs: where it is, and which environments it serves. */
export type CollectBackend = Pick<GatewayClient, "url" | "environments">;

/**
 * `append`: the output holds a resumed run's records, which stay; a runner that writes the output itself adds to them.
 * `streamTo`: a fresh run whose indices are the input's may write its records straight to this file.
 */
export type Runner<O, C extends CollectBackend = GatewayClient> = (
  client: C,
  plan: Plan,
  options: O & CollectOptions,
  context: { known: string[]; append: boolean; streamTo?: string },
) => Promise<RunResult>;

/** A run stopped part-way: what it had collected is written, so a --resume run collects the rest. */
export class PartialCollection extends Error {
  constructor(
    readonly interruption: Error,
    readonly records: RecordLine[],
    /** The runner wrote what it had to the output itself (and put it in order). */
    readonly written = false,
  ) {
    super(interruption.message);
  }
}

/** Puts the input's task and rollout indices back on a job's record (its own numbering is the upload's). */
export function remap(plan: Plan, record: RecordLine): RecordLine {
  const k = Number(record[TASK_INDEX]);
  if (plan.identity || !Number.isInteger(k) || k >= plan.tasks.length) return record;
  const rollout = plan.expanded ? plan.rollouts[k] : Number(record[ROLLOUT_INDEX]);
  return { ...record, [TASK_INDEX]: plan.tasks[k], [ROLLOUT_INDEX]: rollout };
}

/** What the table needs of the input beside the metrics: the repeats asked for and the rows' own fields. */
function withInputs(plan: Plan, summary: CollectSummary): CollectSummary {
  for (const [name, entry] of Object.entries(summary.environments)) Object.assign(entry, plan.inputs[name] ?? {});
  return summary;
}

export async function collectWith<O, C extends CollectBackend = GatewayClient>(
  client: C,
  options: O & CollectOptions,
  runner: Runner<O, C>,
): Promise<CollectSummary> {
  const known = await client.environments();
  if (options.environment && !known.includes(options.environment)) {
    throw new Error(`no environment "${options.environment}" at ${client.url} (known: ${known.join(", ")})`);
  }
  // As NeMo Gym does: the output's folder is made up front, before any rollout runs.
  mkdirSync(path.dirname(path.resolve(options.output)), { recursive: true });
  const previous = options.resume ? await readPrevious(options.output) : { records: [], done: new Set<string>() };
  const plan = await buildPlan({ ...options, known, done: previous.done });
  try {
    const fresh = previous.records.length === 0 && plan.identity;
    let run: RunResult = { records: [], failures: [], problems: [] };
    if (plan.total > 0) {
      try {
        run = await runner(client, plan, options, { known, append: previous.records.length > 0, streamTo: fresh ? options.output : undefined });
      } catch (error) {
        if (error instanceof PartialCollection) {
          if (!error.written) writeLines(options.output, [...previous.records, ...error.records].sort(byIndex));
          throw error.interruption;
        }
        throw error;
      }
    } else if (previous.records.length === 0 && plan.problems.length === 0) {
      throw new Error(`${options.input} has no rows to collect`);
    }
    const problems = [...plan.problems, ...run.problems];
    if (run.written) {
      // The output holds the resumed records and the new ones, in order: the job's own metrics stand only for a fresh run.
      return withInputs(
        plan,
        await finishCollection({
          client,
          output: options.output,
          records: [],
          failures: run.failures,
          previous: previous.records,
          problems,
          known,
          environment: options.environment,
          jobMetrics: fresh ? run.jobMetrics : undefined,
          alreadyWritten: true,
        }),
      );
    }
    return withInputs(
      plan,
      await finishCollection({
        client,
        output: options.output,
        records: run.records,
        failures: run.failures,
        previous: previous.records,
        problems,
        known,
        environment: options.environment,
        jobMetrics: previous.records.length === 0 && plan.identity ? run.jobMetrics : undefined,
      }),
    );
  } finally {
    plan.dispose();
  }
}

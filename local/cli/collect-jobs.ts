// Rollout collection through the queues (the default): create a job from the plan, follow its progress, download what it wrote.
import { createWriteStream } from "node:fs";
import { createInterface } from "node:readline";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { setTimeout as sleep } from "node:timers/promises";
import { type CollectOptions, collectWith, PartialCollection, type RunResult, remap } from "./collect.js";
import type { CollectSummary, RecordLine } from "./collect-output.js";
import type { Plan } from "./collect-plan.js";
import type { DatasetProblem } from "./dataset.js";
import { type GatewayClient, type GatewayError, JobsClient, type JobSnapshot } from "./gateway-client.js";
import { type Progress, silentProgress } from "./progress.js";

export type { CollectSummary } from "./collect-output.js";

export interface CollectJobOptions extends CollectOptions {
  /** Called once the job exists, e.g. to tell the user its id. */
  onJob?: (job: JobSnapshot) => void;
  pollMs?: number;
}

/** What collection needs of a jobs backend: the gateway's JobsClient, or the AWS path's BucketJobsClient. */
export type JobsApi = Pick<JobsClient, "create" | "get" | "lines">;

/** A backend collection can run on: a gateway, or (AWS) jobs in a bucket with their work on SQS. */
export type CollectTarget = GatewayClient | (JobsApi & Pick<GatewayClient, "url" | "environments">);

export class CollectInterrupted extends Error {
  constructor(readonly job: JobSnapshot) {
    super(`interrupted while following job ${job.id}`);
  }
}

async function downloadLines(jobs: JobsApi, id: string, kind: "rollouts" | "failures", plan: Plan): Promise<RecordLine[]> {
  const stream = Readable.fromWeb((await jobs.lines(id, kind)) as NodeReadableStream<Uint8Array>);
  const records: RecordLine[] = [];
  for await (const text of createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY })) {
    if (text.trim()) records.push(remap(plan, JSON.parse(text) as RecordLine));
  }
  return records;
}

async function createJob(jobs: JobsApi, plan: Plan, options: CollectJobOptions): Promise<JobSnapshot> {
  try {
    return await jobs.create(plan.uploadFile, {
      environment: options.environment,
      num_repeats: plan.numRepeats,
      // A bad line stops nothing that was accepted: it is reported, the rest run.
      skip_invalid: true,
      // The gateway shallow-merges these into each row's responses_create_params.
      ...(options.overrides && Object.keys(options.overrides).length ? { responses_create_params: options.overrides } : {}),
    });
  } catch (error) {
    const e = error as GatewayError;
    // Every line refused: the gateway names each one; say them as the input's file:line: field.
    if (e.envelope?.issues?.length) {
      const lines = e.envelope.issues.map((i) => {
        const line = i.line !== undefined ? plan.sourceLines[i.line - 1] : undefined;
        return `${options.input}:${line ?? "?"}: ${i.path.length ? `${i.path.join(".")}: ` : ""}${i.message}`;
      });
      throw new Error(`${e.envelope.message}\n${lines.join("\n")}`);
    }
    throw error;
  }
}

/**
 * Ticks the progress up to a job's counts: one tick per new result, of its kind. (Done and failed are each counted up to the
 * job's own figure; deciding a tick's kind by its position misread a failure as done, or the other way, whenever both grew.)
 */
export function advance(progress: Progress, reported: { done: number; failed: number }, counts: { done: number; failed: number }): void {
  for (; reported.done < counts.done; reported.done++) progress.tick(false);
  for (; reported.failed < counts.failed; reported.failed++) progress.tick(true);
}

/** Runs the plan as one job; records come back with the input's indices. */
export async function runJob(client: CollectTarget, plan: Plan, options: CollectJobOptions, context: { streamTo?: string }): Promise<RunResult> {
  const jobs: JobsApi = "create" in client ? client : new JobsClient(client);
  let job = await createJob(jobs, plan, options);
  const problems: DatasetProblem[] = (job.skipped_lines ?? []).map((skipped) => ({
    file: options.input,
    line: plan.sourceLines[skipped.line - 1] ?? 0,
    field: skipped.field,
    message: skipped.message,
  }));
  options.onJob?.(job);

  const progress = options.progress ?? silentProgress;
  progress.start(job.counts.total);
  const reported = { done: 0, failed: 0 };
  try {
    while (job.status === "running") {
      if (options.signal?.aborted) {
        // What is done so far goes to the output, so `collect --resume` collects only the rest (if the download fails
        // too, the output is empty and --resume collects everything: nothing is lost, only redone).
        const partial = await downloadLines(jobs, job.id, "rollouts", plan).catch(() => []);
        throw new PartialCollection(new CollectInterrupted(job), partial);
      }
      await sleep(options.pollMs ?? 250);
      job = await jobs.get(job.id);
      advance(progress, reported, job.counts);
    }
  } finally {
    progress.stop();
  }

  const failures = job.counts.failed > 0 ? await downloadLines(jobs, job.id, "failures", plan) : [];
  if (context.streamTo) {
    // The job's indices are the input's: its JSONL goes straight to disk, never whole in memory.
    const body = Readable.fromWeb((await jobs.lines(job.id, "rollouts")) as NodeReadableStream<Uint8Array>);
    await pipeline(body, createWriteStream(context.streamTo));
    return { records: [], failures, problems, jobMetrics: job.metrics, written: { rollouts: job.counts.done } };
  }
  return { records: await downloadLines(jobs, job.id, "rollouts", plan), failures, problems, jobMetrics: job.metrics };
}

export function collectJob(client: CollectTarget, options: CollectJobOptions): Promise<CollectSummary & { job?: JobSnapshot }> {
  return collectWith(client, options, runJob);
}

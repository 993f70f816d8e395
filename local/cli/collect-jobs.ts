// Rollout collection through the queues (the default): create a job from the plan, follow its progress, download what it wrote.
import { once } from "node:events";
import { appendFileSync, createWriteStream, existsSync, statSync, truncateSync } from "node:fs";
import { createInterface } from "node:readline";
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { setTimeout as sleep } from "node:timers/promises";
import { type CollectOptions, collectWith, PartialCollection, type RunResult, remap } from "./collect.js";
import type { CollectSummary, RecordLine } from "./collect-output.js";
import { sortByIndex } from "./output-sort.js";
import type { Plan } from "./collect-plan.js";
import type { DatasetProblem } from "./dataset.js";
import { type GatewayClient, type GatewayError, JobsClient, type JobSnapshot } from "./gateway-client.js";
import { silentProgress } from "./progress.js";

export type { CollectSummary } from "./collect-output.js";

export interface CollectJobOptions extends CollectOptions {
  /** Called once the job exists, e.g. to tell the user its id. */
  onJob?: (job: JobSnapshot) => void;
  pollMs?: number;
}

export class CollectInterrupted extends Error {
  constructor(readonly job: JobSnapshot) {
    super(`interrupted while following job ${job.id}`);
  }
}

async function downloadLines(jobs: JobsClient, id: string, kind: "rollouts" | "failures", plan: Plan): Promise<RecordLine[]> {
  const stream = Readable.fromWeb((await jobs.lines(id, kind)) as NodeReadableStream<Uint8Array>);
  const records: RecordLine[] = [];
  for await (const text of createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY })) {
    if (text.trim()) records.push(remap(plan, JSON.parse(text) as RecordLine));
  }
  return records;
}

async function createJob(jobs: JobsClient, plan: Plan, options: CollectJobOptions): Promise<JobSnapshot> {
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
 * Follows the job's rollouts as they land and appends each to the output (after a resumed run's records), so a record is
 * on disk as soon as the job has it; resolves with the count once the job has ended and every line is written.
 */
async function streamRecords(jobs: JobsClient, id: string, plan: Plan, output: string, append: boolean, signal: AbortSignal): Promise<number> {
  const out = createWriteStream(output, { flags: append ? "a" : "w" });
  let written = 0;
  try {
    const stream = Readable.fromWeb((await jobs.lines(id, "rollouts", { follow: true, signal })) as NodeReadableStream<Uint8Array>);
    for await (const text of createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY })) {
      if (!text.trim()) continue;
      // The job's indices are the input's unless the plan renumbered the upload: then the record is remapped first.
      const line = plan.identity ? text : JSON.stringify(remap(plan, JSON.parse(text) as RecordLine));
      if (!out.write(`${line}\n`)) await once(out, "drain");
      written++;
    }
  } catch (error) {
    // Stopped on purpose (interrupted, or the job ended and the stream was let go): what was written stays written.
    if (!signal.aborted) throw error;
  } finally {
    out.end();
    await once(out, "close");
  }
  return written;
}

/** Replaces what this run streamed (the output past `from` bytes) with every rollout the job has now, in its order. */
async function catchUp(jobs: JobsClient, id: string, plan: Plan, output: string, from: number): Promise<void> {
  const records = await downloadLines(jobs, id, "rollouts", plan);
  truncateSync(output, from);
  appendFileSync(output, records.map((record) => `${JSON.stringify(record)}\n`).join(""));
}

/** Runs the plan as one job; records are written to the output as they land, then put in task-then-repeat order. */
export async function runJob(client: GatewayClient, plan: Plan, options: CollectJobOptions, context: { append?: boolean }): Promise<RunResult> {
  const jobs = new JobsClient(client);
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
  let reported = 0;
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  // Where this run's records start in the output (a resumed run's come first).
  const before = context.append === true && existsSync(options.output) ? statSync(options.output).size : 0;
  options.signal?.addEventListener("abort", onAbort, { once: true });
  const streaming = streamRecords(jobs, job.id, plan, options.output, context.append === true, stop.signal);
  // Progress (and failures) from the job's counts, while the stream writes the records.
  let streamed = false;
  void streaming.then(
    () => (streamed = true),
    () => (streamed = true),
  );
  try {
    while (job.status === "running" && !streamed && !options.signal?.aborted) {
      await sleep(options.pollMs ?? 250);
      job = await jobs.get(job.id);
      const finished = job.counts.done + job.counts.failed;
      for (; reported < finished; reported++) progress.tick(reported >= job.counts.done);
    }
    if (options.signal?.aborted) {
      stop.abort();
      await streaming.catch(() => 0);
      // The stream may lag the job by a poll: this run's part of the output is replaced by everything the job has so far,
      // and put in order, so `collect --resume` collects only the rest.
      await catchUp(jobs, job.id, plan, options.output, before).catch(() => undefined);
      await sortByIndex(options.output);
      throw new PartialCollection(new CollectInterrupted(job), [], true);
    }
    await streaming;
    job = await jobs.get(job.id);
    for (const finished = job.counts.done + job.counts.failed; reported < finished; reported++) progress.tick(reported >= job.counts.done);
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
    progress.stop();
  }

  const failures = job.counts.failed > 0 ? await downloadLines(jobs, job.id, "failures", plan) : [];
  const rollouts = await sortByIndex(options.output);
  return { records: [], failures, problems, jobMetrics: job.metrics, written: { rollouts } };
}

export function collectJob(client: GatewayClient, options: CollectJobOptions): Promise<CollectSummary & { job?: JobSnapshot }> {
  return collectWith(client, options, runJob);
}

// Rollout collection through the queues (the default): create a job from the plan, follow its progress, download what it wrote.
import { once } from "node:events";
import { appendFileSync, createWriteStream, existsSync, statSync, truncateSync } from "node:fs";
import { createInterface } from "node:readline";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { setTimeout as sleep } from "node:timers/promises";
import { type CollectOptions, collectWith, PartialCollection, type RunResult, remap } from "./collect.js";
import type { CollectSummary, RecordLine } from "./collect-output.js";
import { sortByIndex } from "./output-sort.js";
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

/** The job was cancelled (`jobs cancel`, the dashboard) while this command followed it: what had landed is written. */
export class JobCancelled extends Error {
  constructor(
    readonly job: JobSnapshot,
    /** Rollouts of this job in the output. */
    readonly landed: number,
  ) {
    super(`job ${job.id} was cancelled: ${landed} of ${job.counts.total} rollouts landed`);
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
      ...(options.toolNames ? { tool_names: options.toolNames } : {}),
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

/** Replaces what this run streamed (the output past `from` bytes) with every rollout the job has now; returns their count. */
async function catchUp(jobs: JobsClient, id: string, plan: Plan, output: string, from: number): Promise<number> {
  const records = await downloadLines(jobs, id, "rollouts", plan);
  truncateSync(output, from);
  appendFileSync(output, records.map((record) => `${JSON.stringify(record)}\n`).join(""));
  return records.length;
}

/** Runs the plan as one job; records are written to the output as they land (where the backend follows a job), then put in order. */
export async function runJob(
  client: CollectTarget,
  plan: Plan,
  options: CollectJobOptions,
  context: { append?: boolean; streamTo?: string },
): Promise<RunResult> {
  const jobs: JobsApi = "create" in client ? client : new JobsClient(client);
  const job = await createJob(jobs, plan, options);
  const problems: DatasetProblem[] = (job.skipped_lines ?? []).map((skipped) => ({
    file: options.input,
    line: plan.sourceLines[skipped.line - 1] ?? 0,
    field: skipped.field,
    message: skipped.message,
  }));
  options.onJob?.(job);

  const progress = options.progress ?? silentProgress;
  progress.start(job.counts.total);
  // The gateway follows a job's results as they land; a jobs bucket (the AWS path) is read once the job has ended.
  if (jobs instanceof JobsClient) return followJob(jobs, job, plan, options, context.append === true, problems);
  return awaitJob(jobs, job, plan, options, context.streamTo, problems);
}

/** Follows a job to its end, each record written to the output as it lands, then the output put in order. */
async function followJob(
  jobs: JobsClient,
  created: JobSnapshot,
  plan: Plan,
  options: CollectJobOptions,
  append: boolean,
  problems: DatasetProblem[],
): Promise<RunResult> {
  let job = created;
  const progress = options.progress ?? silentProgress;
  const reported = { done: 0, failed: 0 };
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  // Where this run's records start in the output (a resumed run's come first).
  const before = append && existsSync(options.output) ? statSync(options.output).size : 0;
  options.signal?.addEventListener("abort", onAbort, { once: true });
  const streaming = streamRecords(jobs, job.id, plan, options.output, append, stop.signal);
  // Progress (and failures) from the job's counts, while the stream writes the records.
  let streamed = false;
  void streaming.then(
    () => (streamed = true),
    () => (streamed = true),
  );
  /** Interrupted: the stream may lag the job by a poll, so this run's part of the output is replaced by everything the
   * job has so far, and put in order, so `collect --resume` collects only the rest. */
  const interrupted = async (): Promise<never> => {
    stop.abort();
    await streaming.catch(() => 0);
    await catchUp(jobs, job.id, plan, options.output, before).catch(() => undefined);
    await sortByIndex(options.output);
    throw new PartialCollection(new CollectInterrupted(job), [], true);
  };
  try {
    try {
      while (job.status === "running" && !streamed && !options.signal?.aborted) {
        await sleep(options.pollMs ?? 250);
        job = await jobs.get(job.id);
        advance(progress, reported, job.counts);
      }
      if (options.signal?.aborted) await interrupted();
      await streaming;
      // Interrupted while the last records streamed (the stream ends quietly when cut): the same as before it.
      if (options.signal?.aborted) await interrupted();
      job = await jobs.get(job.id);
      advance(progress, reported, job.counts);
      if (job.status === "cancelled" && job.counts.done + job.counts.failed < job.counts.total) {
        // Cancelled under this command, rollouts missing: not a finished collection. What landed (rollouts still running
        // may land after the stream ended) is written in order; --resume collects the rest. (A cancel that came after
        // every rollout had its result changed nothing: that collection is complete.)
        const landed = await catchUp(jobs, job.id, plan, options.output, before).catch(() => streaming);
        await sortByIndex(options.output);
        throw new PartialCollection(new JobCancelled(job, landed), [], true);
      }
    } catch (error) {
      // A terminal's Ctrl-C signals workerd too: a poll or a download that failed because the local emulation went with
      // it is the interruption, and the records streamed so far are still put in order. (The failure may be seen a moment
      // before the signal is: it is given that moment.)
      if (error instanceof PartialCollection) throw error;
      if (options.signal && !options.signal.aborted) await sleep(200);
      if (options.signal?.aborted) await interrupted();
      throw error;
    }
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
    // Left by an error (a failed poll): the follow stream is stopped too, or it would hold the process until the job ends.
    if (!stop.signal.aborted && !streamed) {
      stop.abort();
      await streaming.catch(() => 0);
    }
    progress.stop();
  }

  const failures = job.counts.failed > 0 ? await downloadLines(jobs, job.id, "failures", plan) : [];
  const rollouts = await sortByIndex(options.output);
  return { records: [], failures, problems, jobMetrics: job.metrics, written: { rollouts } };
}

/** Polls a job to its end, then downloads what it wrote (straight to the output when its indices are the input's). */
async function awaitJob(
  jobs: JobsApi,
  created: JobSnapshot,
  plan: Plan,
  options: CollectJobOptions,
  streamTo: string | undefined,
  problems: DatasetProblem[],
): Promise<RunResult> {
  let job = created;
  const progress = options.progress ?? silentProgress;
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
  if (job.status === "cancelled" && job.counts.done + job.counts.failed < job.counts.total) {
    const partial = await downloadLines(jobs, job.id, "rollouts", plan);
    throw new PartialCollection(new JobCancelled(job, partial.length), partial);
  }

  const failures = job.counts.failed > 0 ? await downloadLines(jobs, job.id, "failures", plan) : [];
  if (streamTo) {
    // The job's indices are the input's: its JSONL goes straight to disk, never whole in memory.
    const body = Readable.fromWeb((await jobs.lines(job.id, "rollouts")) as NodeReadableStream<Uint8Array>);
    await pipeline(body, createWriteStream(streamTo));
    return { records: [], failures, problems, jobMetrics: job.metrics, written: { rollouts: job.counts.done } };
  }
  return { records: await downloadLines(jobs, job.id, "rollouts", plan), failures, problems, jobMetrics: job.metrics };
}

export function collectJob(client: CollectTarget, options: CollectJobOptions): Promise<CollectSummary & { job?: JobSnapshot }> {
  return collectWith(client, options, runJob);
}

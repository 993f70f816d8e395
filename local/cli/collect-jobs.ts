// Rollout collection through the queues (the default): create a job, follow its progress, download what it wrote.
import { createWriteStream, existsSync, rmSync, writeFileSync } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { setTimeout as sleep } from "node:timers/promises";
import type { DatasetProblem } from "./dataset.js";
import { sidecarPath, type CollectSummary } from "./collect-direct.js";
import { JobsClient, type GatewayClient, type GatewayError, type JobSnapshot } from "./gateway-client.js";
import { silentProgress, type Progress } from "./progress.js";

export interface CollectJobOptions {
  input: string;
  output: string;
  environment?: string;
  numRepeats?: number;
  limit?: number;
  progress?: Progress;
  signal?: AbortSignal;
  /** Called once the job exists, e.g. to tell the user its id. */
  onJob?: (job: JobSnapshot) => void;
  pollMs?: number;
}

export class CollectInterrupted extends Error {
  constructor(readonly job: JobSnapshot) {
    super(`interrupted while following job ${job.id}`);
  }
}

/** Download one kind of a job's results to a file; false when there were none. */
async function download(jobs: JobsApi, id: string, kind: "rollouts" | "failures", file: string): Promise<void> {
  await pipeline(Readable.fromWeb((await jobs.lines(id, kind)) as import("node:stream/web").ReadableStream<Uint8Array>), createWriteStream(file));
}

/** What collection needs of a jobs backend: the gateway's JobsClient, or the AWS path's BucketJobsClient. */
export type JobsApi = Pick<JobsClient, "create" | "get" | "lines">;

export async function collectJob(client: GatewayClient | JobsApi, options: CollectJobOptions): Promise<CollectSummary & { job: JobSnapshot }> {
  const jobs = "create" in client ? client : new JobsClient(client);
  const problems: DatasetProblem[] = [];
  let job: JobSnapshot;
  try {
    job = await jobs.create(options.input, {
      environment: options.environment,
      num_repeats: options.numRepeats,
      limit: options.limit,
      // A bad line stops nothing that was accepted: it is reported, the rest run.
      skip_invalid: true,
    });
  } catch (error) {
    const e = error as GatewayError;
    // Every line bad: the gateway names each one; say them as file:line: field.
    if (e.envelope?.issues?.length) {
      const lines = e.envelope.issues.map((i) => `${options.input}:${i.line ?? "?"}: ${i.path.length ? `${i.path.join(".")}: ` : ""}${i.message}`);
      throw new Error(`${e.envelope.message}\n${lines.join("\n")}`);
    }
    throw error;
  }
  for (const skipped of job.skipped_lines ?? []) problems.push({ file: options.input, line: skipped.line, field: skipped.field, message: skipped.message });
  options.onJob?.(job);

  const progress = options.progress ?? silentProgress;
  progress.start(job.counts.total);
  let reported = 0;
  try {
    while (job.status === "running") {
      if (options.signal?.aborted) throw new CollectInterrupted(job);
      await sleep(options.pollMs ?? 250);
      job = await jobs.get(job.id);
      const finished = job.counts.done + job.counts.failed;
      for (; reported < finished; reported++) progress.tick(reported >= job.counts.done);
    }
  } finally {
    progress.stop();
  }

  await download(jobs, job.id, "rollouts", options.output);
  const failuresFile = sidecarPath(options.output, ".failures.jsonl");
  if (job.counts.failed > 0) await download(jobs, job.id, "failures", failuresFile);
  else if (existsSync(failuresFile)) rmSync(failuresFile);
  const metricsFile = sidecarPath(options.output, ".metrics.json");
  writeFileSync(metricsFile, `${JSON.stringify(job.metrics ?? {}, null, 2)}\n`);

  const environments: CollectSummary["environments"] = {};
  for (const [name, metrics] of Object.entries(job.metrics ?? {})) {
    const count = (metrics.group_level_metrics ?? []).reduce((n, g) => n + Number(g.num_rollouts ?? 0), 0);
    environments[name] = { rollouts: count, failed: 0, metrics };
  }
  // Failures are counted per job; put them on the job's environment (or the only one) for the table.
  const names = Object.keys(environments);
  const owner = job.environment ?? (names.length === 1 ? names[0] : undefined);
  if (owner) environments[owner] = { rollouts: environments[owner]?.rollouts ?? 0, failed: job.counts.failed, metrics: environments[owner]?.metrics };
  return {
    job,
    rollouts: job.counts.done,
    failed: job.counts.failed,
    problems,
    environments,
    files: { rollouts: options.output, ...(job.counts.failed ? { failures: failuresFile } : {}), metrics: metricsFile },
  };
}

// `edgegym jobs list|status|results|cancel|resume`: jobs on a running gateway.
import { createWriteStream } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebStream } from "node:stream/web";
import { Command, Option } from "commander";
import { BucketJobsClient } from "./bucket-client.js";
import { STATE_DIR } from "../paths.js";
import { GatewayClient, JobsClient } from "./gateway-client.js";
import { jobLine as line, jobStatus, jobsListing } from "./jobs-view.js";
import { savedDevToken } from "./token.js";

const DEFAULT_URL = "http://127.0.0.1:8787";

export function jobsCommand(): Command {
  const jobs = new Command("jobs").description("list, follow, fetch, cancel and resume jobs on a gateway");
  // A bucket names the AWS path (jobs in S3, work on SQS); otherwise the gateway.
  const connect = (options: { url: string; token?: string; stateDir: string; bucket?: string; queueUrl?: string; tenant?: string }) =>
    options.bucket
      ? new BucketJobsClient({
          bucket: options.bucket,
          ...(options.queueUrl ? { queueUrl: options.queueUrl } : {}),
          ...(options.tenant ? { tenant: options.tenant } : {}),
        })
      : new JobsClient(new GatewayClient(options.url, options.token ?? savedDevToken(options.stateDir)));
  const withGateway = (command: Command) =>
    command
      .addOption(new Option("--url <gateway>", "the gateway").env("EDGEGYM_URL").default(DEFAULT_URL))
      .addOption(new Option("--token <token>", "bearer token").env("EDGEGYM_TOKEN"))
      .option("--state-dir <dir>", "without --token: the dev token that `edgegym dev --state-dir <dir>` saved", STATE_DIR)
      .addOption(new Option("--bucket <s3://bucket/prefix>", "AWS: the jobs' bucket (instead of a gateway)").env("EDGEGYM_BUCKET"))
      .addOption(new Option("--queue-url <sqs url>", "AWS: the rollouts queue (for resume)").env("EDGEGYM_QUEUE_URL"))
      .addOption(new Option("--tenant <name>", "AWS: only this tenant's jobs (another's is \"no job\")").env("EDGEGYM_TENANT"));

  withGateway(jobs.command("list").description("jobs, newest first")).action(async (options) => {
    const { data } = await connect(options).list();
    process.stdout.write(`${jobsListing(data)}\n`);
  });

  withGateway(jobs.command("status <id>").description("a job's counts, and its metrics once complete"))
    .option("--json", "the whole status as JSON")
    .action(async (id: string, options) => {
      const job = await connect(options).get(id);
      process.stdout.write(options.json ? `${JSON.stringify(job, null, 2)}\n` : `${jobStatus(job)}\n`);
    });

  withGateway(jobs.command("results <id>").description("download a job's scored rollouts (or --failures)"))
    .requiredOption("-o, --output <file>", "where to write the JSONL")
    .option("--failures", "the failure records instead")
    .option("--follow", "write each record as it lands (in the order recorded) until the job ends")
    .action(async (id: string, options) => {
      const stream = await connect(options).lines(id, options.failures ? "failures" : "rollouts", { follow: options.follow === true });
      await pipeline(Readable.fromWeb(stream as WebStream<Uint8Array>), createWriteStream(options.output));
      process.stdout.write(`${options.output}\n`);
    });

  withGateway(jobs.command("cancel <id>").description("drop the job's queued rollouts")).action(async (id: string, options) => {
    process.stdout.write(`${line(await connect(options).cancel(id))}\n`);
  });

  withGateway(jobs.command("resume <id>").description("re-enqueue only the rollouts that have no result"))
    .option("--only-missing", "only rollouts with no record at all: failures stay failures (what a restart does)")
    .action(async (id: string, options) => {
      const job = await connect(options).resume(id, options.onlyMissing === true);
      process.stdout.write(`${line(job)}\nre-enqueued ${job.resumed} rollout(s)\n`);
    });
  return jobs;
}

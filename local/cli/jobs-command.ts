// `edgegym jobs list|status|results|cancel|resume`: jobs on a running gateway.
import { createWriteStream } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebStream } from "node:stream/web";
import { Command, Option } from "commander";
import { GatewayClient, JobsClient, type JobSnapshot } from "./gateway-client.js";

const DEFAULT_URL = "http://127.0.0.1:8787";

function line(job: JobSnapshot): string {
  const c = job.counts;
  return `${job.id}  ${job.status.padEnd(9)}  ${(job.progress * 100).toFixed(1).padStart(5)}%  done ${c.done}  failed ${c.failed}  running ${c.running}  queued ${c.queued}  of ${c.total}  ${job.environment ?? "(per row)"}  ${job.elapsed_seconds.toFixed(1)} s`;
}

export function jobsCommand(): Command {
  const jobs = new Command("jobs").description("list, follow, fetch, cancel and resume jobs on a gateway");
  const connect = (options: { url: string; token?: string }) => new JobsClient(new GatewayClient(options.url, options.token));
  const withGateway = (command: Command) =>
    command.option("--url <gateway>", "the gateway", DEFAULT_URL).addOption(new Option("--token <token>", "bearer token").env("EDGEGYM_TOKEN"));

  withGateway(jobs.command("list").description("jobs, newest first")).action(async (options) => {
    const { data } = await connect(options).list();
    process.stdout.write(data.length ? `${data.map(line).join("\n")}\n` : "no jobs\n");
  });

  withGateway(jobs.command("status <id>").description("a job's counts, and its metrics once complete"))
    .option("--json", "the whole status as JSON")
    .action(async (id: string, options) => {
      const job = await connect(options).get(id);
      process.stdout.write(options.json ? `${JSON.stringify(job, null, 2)}\n` : `${line(job)}\n`);
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

  withGateway(jobs.command("resume <id>").description("re-enqueue only the rollouts that have no result")).action(async (id: string, options) => {
    const job = await connect(options).resume(id);
    process.stdout.write(`${line(job)}\nre-enqueued ${job.resumed} rollout(s)\n`);
  });
  return jobs;
}

// The edgegym command line: collect rollouts (through the queues, or --direct through /run), manage jobs, run locally.
import { existsSync } from "node:fs";
import { Command, InvalidArgumentError, Option } from "commander";
import { startLocal, modelFromEnv, type Local } from "../emulation.js";
import { collectDirect, type CollectSummary } from "./collect-direct.js";
import { CollectInterrupted, collectJob } from "./collect-jobs.js";
import { formatProblem } from "./dataset.js";
import { GatewayClient } from "./gateway-client.js";
import { envCommand, initCommand } from "./env-command.js";
import { BucketJobsClient } from "./bucket-client.js";
import { jobsCommand } from "./jobs-command.js";
import { workerCommand } from "./worker.js";
import { progressBar } from "./progress.js";
import { metricsTable } from "./table.js";

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("expected a positive integer");
  return n;
}

function report(summary: CollectSummary): void {
  for (const problem of summary.problems) process.stderr.write(`skipped ${formatProblem(problem)}\n`);
  const columns = Object.entries(summary.environments).map(([environment, counts]) => ({ environment, ...counts }));
  process.stdout.write(`${metricsTable(columns)}\n\n`);
  process.stdout.write(`rollouts: ${summary.files.rollouts} (${summary.rollouts})\n`);
  if (summary.files.failures) process.stdout.write(`failures: ${summary.files.failures} (${summary.failed})\n`);
  process.stdout.write(`metrics:  ${summary.files.metrics}\n`);
  if (summary.problems.length) process.stderr.write(`${summary.problems.length} input problem(s) reported above\n`);
  if (summary.rollouts === 0) process.exitCode = 1;
}

const program = new Command("edgegym").description("Reinforcement-learning environments for LLM agents, on the edge.");

program
  .command("collect")
  .description("collect scored rollouts for a JSONL dataset (a job through the queues; --direct for /run)")
  .requiredOption("-i, --input <rows.jsonl>", "dataset in NeMo Gym's JSONL format")
  .requiredOption("-o, --output <out.jsonl>", "where the scored rollouts go (failures and metrics are written beside it)")
  .option("-e, --environment <name>", "environment for every row (default: each row's agent_ref)")
  .option("-n, --num-repeats <n>", "rollouts per row", positiveInt, 1)
  .option("--limit <n>", "only the first n rows", positiveInt)
  .option("-c, --concurrency <n>", "rollouts in flight (--direct only; the queues pace themselves)", positiveInt, 16)
  .option("--direct", "call /run for each rollout instead of creating a job")
  .option("--url <gateway>", "an edgegym gateway; without it the local emulation is started and stopped")
  .addOption(new Option("--token <token>", "bearer token for the gateway").env("EDGEGYM_TOKEN"))
  .option("--queue-url <sqs url>", "AWS: enqueue to this SQS rollouts queue (with --bucket) instead of a gateway")
  .option("--bucket <s3://bucket/prefix>", "AWS: where the job's inputs and results live")
  .action(async (options) => {
    if (!existsSync(options.input)) throw new Error(`cannot read ${options.input}: no such file`);
    if (options.queueUrl || options.bucket) return collectOnAws(options);
    let local: Local | undefined;
    const controller = new AbortController();
    const interrupt = () => controller.abort();
    process.once("SIGINT", interrupt);
    try {
      if (!options.url) {
        process.stderr.write("starting the local emulation…\n");
        local = await startLocal({ port: 0, ...modelFromEnv() });
      }
      const url: string = options.url ?? local!.url;
      const client = new GatewayClient(url, options.token);
      const common = {
        input: options.input,
        output: options.output,
        environment: options.environment,
        numRepeats: options.numRepeats,
        limit: options.limit,
        progress: progressBar("collect"),
        signal: controller.signal,
      };
      if (options.direct) {
        report(await collectDirect(client, { ...common, concurrency: options.concurrency }));
        if (controller.signal.aborted) process.stderr.write("interrupted: the records written so far are kept\n");
        return;
      }
      try {
        report(await collectJob(client, { ...common, onJob: (job) => process.stderr.write(`job ${job.id}: ${job.counts.total} rollouts\n`) }));
      } catch (error) {
        if (!(error instanceof CollectInterrupted)) throw error;
        const follow = `edgegym jobs status ${error.job.id}${options.url ? ` --url ${options.url}` : ""}`;
        process.stderr.write(
          local
            ? `\ninterrupted: job ${error.job.id} stops with this command's local emulation; its results so far are kept in .edgegym/. Start \`npm run dev\` and run \`edgegym jobs resume ${error.job.id}\` to finish it.\n`
            : `\ninterrupted: job ${error.job.id} keeps running on the gateway. Follow it with \`${follow}\`, fetch it with \`edgegym jobs results ${error.job.id} -o ${options.output}${options.url ? ` --url ${options.url}` : ""}\`.\n`,
        );
        process.exitCode = 130;
      }
    } finally {
      process.off("SIGINT", interrupt);
      await local?.stop();
    }
  });

/** `collect --queue-url … --bucket …`: the job made, followed and read by this command in S3; agents on Lambda or `edgegym worker` run it. */
async function collectOnAws(options: {
  input: string;
  output: string;
  environment?: string;
  numRepeats: number;
  limit?: number;
  queueUrl?: string;
  bucket?: string;
}): Promise<void> {
  if (!options.queueUrl || !options.bucket) throw new Error("the AWS path needs both --queue-url <sqs url> and --bucket <s3://bucket/prefix>");
  const controller = new AbortController();
  const interrupt = () => controller.abort();
  process.once("SIGINT", interrupt);
  try {
    const client = new BucketJobsClient({ bucket: options.bucket, queueUrl: options.queueUrl });
    report(
      await collectJob(client, {
        input: options.input,
        output: options.output,
        environment: options.environment,
        numRepeats: options.numRepeats,
        limit: options.limit,
        progress: progressBar("collect"),
        signal: controller.signal,
        pollMs: 1000,
        onJob: (job) => process.stderr.write(`job ${job.id}: ${job.counts.total} rollouts\n`),
      }),
    );
  } catch (error) {
    if (!(error instanceof CollectInterrupted)) throw error;
    const where = `--bucket ${options.bucket}`;
    process.stderr.write(
      `\ninterrupted: job ${error.job.id} keeps running on the queue. Follow it with \`edgegym jobs status ${error.job.id} ${where}\`, fetch it with \`edgegym jobs results ${error.job.id} -o ${options.output} ${where}\`.\n`,
    );
    process.exitCode = 130;
  } finally {
    process.off("SIGINT", interrupt);
  }
}

program.addCommand(jobsCommand());
program.addCommand(workerCommand());
program.addCommand(initCommand());
program.addCommand(envCommand());

program
  .command("dev")
  .description("run every Worker, queue, Durable Object and bucket locally, with the simulator, until Ctrl-C")
  .option("-p, --port <port>", "gateway port", (v) => Number(v), 8787)
  .action(async (options) => {
    const local = await startLocal({ port: options.port, ...modelFromEnv(), verbose: true });
    process.stdout.write(`edgegym gateway: ${local.url}\nmodel: ${local.modelBaseUrl}\nenvironments: ${local.environments.join(", ")}\n`);
    const stop = async () => {
      await local.stop();
      process.exit(0);
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });

try {
  await program.parseAsync(process.argv);
} catch (error) {
  // A user error reads as one line (or one per bad input line), not a stack trace.
  process.stderr.write(`edgegym: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}

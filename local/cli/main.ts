// The edgegym command line: collect rollouts, run the local emulation.
import { existsSync } from "node:fs";
import { Command, InvalidArgumentError, Option } from "commander";
import { startLocal, modelFromEnv, type Local } from "../emulation.js";
import { collect } from "./collect.js";
import { formatProblem } from "./dataset.js";
import { GatewayClient } from "./gateway-client.js";
import { progressBar } from "./progress.js";
import { metricsTable } from "./table.js";

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("expected a positive integer");
  return n;
}

const program = new Command("edgegym").description("Reinforcement-learning environments for LLM agents, on the edge.");

program
  .command("collect")
  .description("collect scored rollouts for a JSONL dataset through /run")
  .requiredOption("-i, --input <rows.jsonl>", "dataset in NeMo Gym's JSONL format")
  .requiredOption("-o, --output <out.jsonl>", "where the scored rollouts go (failures and metrics are written beside it)")
  .option("-e, --environment <name>", "environment for every row (default: each row's agent_ref)")
  .option("-n, --num-repeats <n>", "rollouts per row", positiveInt, 1)
  .option("--limit <n>", "only the first n rows", positiveInt)
  .option("-c, --concurrency <n>", "rollouts in flight", positiveInt, 16)
  .option("--url <gateway>", "an edgegym gateway; without it the local emulation is started and stopped")
  .addOption(new Option("--token <token>", "bearer token for the gateway").env("EDGEGYM_TOKEN"))
  .action(async (options) => {
    if (!existsSync(options.input)) throw new Error(`cannot read ${options.input}: no such file`);
    let local: Local | undefined;
    const controller = new AbortController();
    const interrupt = () => {
      process.stderr.write("\ninterrupted: finishing the rollouts in flight, keeping what is written\n");
      controller.abort();
    };
    process.once("SIGINT", interrupt);
    try {
      if (!options.url) {
        process.stderr.write("starting the local emulation…\n");
        local = await startLocal({ port: 0, ...modelFromEnv() });
      }
      const client = new GatewayClient(options.url ?? local!.url, options.token);
      const summary = await collect(client, {
        input: options.input,
        output: options.output,
        environment: options.environment,
        numRepeats: options.numRepeats,
        limit: options.limit,
        concurrency: options.concurrency,
        progress: progressBar("collect"),
        signal: controller.signal,
      });
      for (const problem of summary.problems) process.stderr.write(`skipped ${formatProblem(problem)}\n`);
      const columns = Object.entries(summary.environments).map(([environment, counts]) => ({ environment, ...counts }));
      process.stdout.write(`${metricsTable(columns)}\n\n`);
      process.stdout.write(`rollouts: ${summary.files.rollouts} (${summary.rollouts})\n`);
      if (summary.files.failures) process.stdout.write(`failures: ${summary.files.failures} (${summary.failed})\n`);
      process.stdout.write(`metrics:  ${summary.files.metrics}\n`);
      if (summary.problems.length) process.stderr.write(`${summary.problems.length} input problem(s) reported above\n`);
      if (summary.rollouts === 0) process.exitCode = 1;
    } finally {
      process.off("SIGINT", interrupt);
      await local?.stop();
    }
  });

program
  .command("dev")
  .description("run every Worker, Durable Object and the simulator locally until Ctrl-C")
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
  // A user error reads as one line, not a stack trace.
  process.stderr.write(`edgegym: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}

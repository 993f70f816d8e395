// `edgegym collect`: NeMo Gym's rollout collection flags (gym eval run / ng_collect_rollouts) on edgegym's jobs or /run.
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { Command, InvalidArgumentError, Option } from "commander";
import { type Local, modelFromEnv, startLocal } from "../emulation.js";
import { discoverEnvironments } from "../environments.js";
import { localAuth, savedDevToken, tokenForLocal } from "./token.js";
import { BucketJobsClient } from "./bucket-client.js";
import { PROJECT_ROOT, STATE_DIR } from "../paths.js";
import { collectDirect } from "./collect-direct.js";
import { CollectInterrupted, collectJob, JobCancelled } from "./collect-jobs.js";
import type { CollectSummary } from "./collect-output.js";
import { parseRepeats, type RepeatsSpec } from "./collect-plan.js";
import { SPLITS } from "./collate.js";
import { formatProblem } from "./dataset.js";
import { GatewayClient, JobsClient } from "./gateway-client.js";
import { loadPromptConfig } from "./prompt-config.js";
import { progressBar } from "./progress.js";
import { onInterrupt } from "./interrupt.js";
import { metricsTable } from "./table.js";

/** Exit codes beside 0 (all ran), 1 (an error, or nothing collected) and 130 (Ctrl-C): documented in the README's collect section. */
export const EXIT_ROWS_SKIPPED = 2;
export const EXIT_JOB_CANCELLED = 3;

export function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("expected a positive integer");
  return n;
}

function number(value: string): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n)) throw new InvalidArgumentError("expected a number");
  return n;
}

function repeats(value: string): RepeatsSpec {
  try {
    return parseRepeats(value);
  } catch (error) {
    throw new InvalidArgumentError(error instanceof Error ? error.message : String(error));
  }
}

interface CollectFlags {
  input?: string;
  output: string;
  environment?: string;
  numRepeats: RepeatsSpec;
  numRepeatsAddSeed?: boolean;
  limit?: number;
  temperature?: number;
  topP?: number;
  maxOutputTokens?: number;
  promptConfig?: string;
  split?: string;
  resume?: boolean;
  concurrency: number;
  direct?: boolean;
  url?: string;
  token?: string;
  /** Remote environments for the local emulation (default: EDGEGYM_REMOTE_CONFIG, else ./edgegym.remote.json). */
  remoteConfig?: string;
  /** Where `edgegym dev` saved its dev token. */
  stateDir: string;
  /** AWS: the SQS rollouts queue and the S3 bucket (`s3://bucket/prefix`) the job lives in, instead of a gateway. */
  queueUrl?: string;
  bucket?: string;
  /** AWS: the tenant the job belongs to (its id is job_<tenant>_…); IAM holds each tenant's credentials to its own. */
  tenant?: string;
  /** Exit 0 though bad input rows were skipped (the rest ran). */
  allowSkipped?: boolean;
  /** `mcp`: the model sees the environment's tools as `mcp__<environment>__<tool>` (the job's or /run's tool_names). */
  toolNames?: "plain" | "mcp";
}

/** The input file: --input, or a split of a collated directory, or of an environment's data/ folder. */
export function resolveInput(flags: Pick<CollectFlags, "input" | "split" | "environment">): string {
  if (flags.split) {
    if (flags.input && existsSync(flags.input) && statSync(flags.input).isDirectory()) return path.join(flags.input, `${flags.split}.jsonl`);
    if (!flags.input && flags.environment) return path.join(PROJECT_ROOT, "environments", flags.environment, "data", `${flags.split}.jsonl`);
    if (flags.input)
      throw new Error(`--split ${flags.split} reads <dir>/${flags.split}.jsonl: --input must be a directory made by \`edgegym dataset collate\``);
  }
  if (!flags.input) throw new Error("give --input <rows.jsonl> (or --split with a collated --input directory, or with --environment)");
  return flags.input;
}

function report(summary: CollectSummary, allowSkipped = false): void {
  for (const problem of summary.problems) process.stderr.write(`skipped ${formatProblem(problem)}\n`);
  const columns = Object.entries(summary.environments).map(([environment, counts]) => ({ environment, ...counts }));
  process.stdout.write(`${metricsTable(columns)}\n\n`);
  process.stdout.write(`rollouts: ${summary.files.rollouts} (${summary.rollouts}${summary.resumed ? `, ${summary.resumed} from the earlier run` : ""})\n`);
  if (summary.files.failures) process.stdout.write(`failures: ${summary.files.failures} (${summary.failed})\n`);
  process.stdout.write(`metrics:  ${summary.files.metrics}\n`);
  process.stdout.write(`aggregate metrics (NeMo Gym's format): ${summary.files.aggregateMetrics}\n`);
  const badRows = new Set(summary.problems.map((problem) => `${problem.file}:${problem.line}`)).size;
  if (summary.problems.length) {
    process.stderr.write(
      `${badRows} bad row(s) skipped (${summary.problems.length} problem(s) above)${allowSkipped ? "" : `: exit ${EXIT_ROWS_SKIPPED} (--allow-skipped exits 0)`}\n`,
    );
    if (!allowSkipped) process.exitCode = EXIT_ROWS_SKIPPED;
  }
  if (summary.rollouts === 0) process.exitCode = 1;
}

async function run(flags: CollectFlags): Promise<void> {
  const input = resolveInput(flags);
  if (!existsSync(input)) throw new Error(`cannot read ${input}: no such file`);
  const overrides = Object.fromEntries(
    Object.entries({ temperature: flags.temperature, top_p: flags.topP, max_output_tokens: flags.maxOutputTokens }).filter(([, v]) => v !== undefined),
  );
  const promptConfig = flags.promptConfig ? loadPromptConfig(flags.promptConfig) : undefined;
  let local: Local | undefined;
  const controller = new AbortController();
  const interrupts = onInterrupt(() => controller.abort());
  const aws = flags.queueUrl || flags.bucket;
  const resume = "run the same command with --resume to collect only the rest";
  try {
    if (aws && (!flags.queueUrl || !flags.bucket)) throw new Error("the AWS path needs both --queue-url <sqs url> and --bucket <s3://bucket/prefix>");
    if (aws && flags.direct) throw new Error("--direct calls a gateway's /run: it does not go with --queue-url/--bucket");
    if (!flags.url && !aws) {
      process.stderr.write("starting the local emulation…\n");
      // Rows all for one bundled environment: only that one is bundled and started (seconds, not a minute for all of them).
      const only = flags.environment && discoverEnvironments().includes(flags.environment) ? { environments: [flags.environment] } : {};
      local = await startLocal({
        port: 0,
        ...only,
        ...modelFromEnv(),
        ...localAuth(flags.token),
        ...(flags.remoteConfig ? { remoteConfig: flags.remoteConfig } : {}),
      });
      process.stderr.write(`local emulation: ${local.url} (its dashboard at ${local.url}/ while collect runs)\n`);
      // Ctrl-C is collect's until the emulation is stopped: Miniflare's own hook would exit before the output is written.
      interrupts.claim();
    }
    const gateway = aws
      ? undefined
      : new GatewayClient(flags.url ?? local!.url, local ? tokenForLocal(local, flags.token) : (flags.token ?? savedDevToken(flags.stateDir)));
    // On AWS the job is made, followed and read by this command in S3; agents on Lambda or `edgegym worker` run it.
    const client = gateway ?? new BucketJobsClient({ bucket: flags.bucket!, queueUrl: flags.queueUrl!, ...(flags.tenant ? { tenant: flags.tenant } : {}) });
    const common = {
      input,
      output: flags.output,
      environment: flags.environment,
      numRepeats: flags.numRepeats,
      limit: flags.limit,
      promptConfig,
      overrides,
      addSeed: flags.numRepeatsAddSeed,
      ...(flags.toolNames ? { toolNames: flags.toolNames } : {}),
      resume: flags.resume,
      progress: progressBar("collect"),
      signal: controller.signal,
    };
    try {
      if (flags.direct && gateway) report(await collectDirect(gateway, { ...common, concurrency: flags.concurrency }), flags.allowSkipped);
      else
        report(
          await collectJob(client, { ...common, onJob: (job) => process.stderr.write(`job ${job.id}: ${job.counts.total} rollouts\n`) }),
          flags.allowSkipped,
        );
    } catch (error) {
      if (error instanceof JobCancelled) {
        process.stderr.write(
          `\njob ${error.job.id} was cancelled: ${error.landed} of ${error.job.counts.total} rollouts landed, written in order to ${flags.output}; ${resume}.\n`,
        );
        process.exitCode = EXIT_JOB_CANCELLED;
        return;
      }
      if (!controller.signal.aborted) throw error;
      if (error instanceof CollectInterrupted) {
        // Locally the job ends with the emulation: cancelled, so the next start does not resume it (a --resume collects
        // the rest). A terminal's Ctrl-C reaches workerd too, which may be gone already: then there is nothing to cancel.
        if (local && gateway) await new JobsClient(gateway).cancel(error.job.id).catch(() => undefined);
        const where = aws ? ` --bucket ${flags.bucket}` : flags.url ? ` --url ${flags.url}` : "";
        const follow = `edgegym jobs status ${error.job.id}${where}`;
        process.stderr.write(
          local
            ? `\ninterrupted: job ${error.job.id} stops with this command's local emulation; the rollouts it finished are in ${flags.output}: ${resume}.\n`
            : `\ninterrupted: job ${error.job.id} keeps running ${aws ? "on the queue" : "on the gateway"}. Follow it with \`${follow}\`, fetch it with \`edgegym jobs results ${error.job.id} -o ${flags.output}${where}\`; the rollouts finished so far are in ${flags.output} (cancel the job, then ${resume}).\n`,
        );
      } else {
        process.stderr.write(`\ninterrupted: the rollouts finished so far are in ${flags.output}: ${resume}.\n`);
      }
      process.exitCode = 130;
    }
  } finally {
    interrupts.release();
    await local?.stop();
  }
}

export function collectCommand(): Command {
  return new Command("collect")
    .description("collect scored rollouts for a JSONL dataset (a job through the queues; --direct for /run)")
    .option("-i, --input <rows.jsonl|dir>", "dataset in NeMo Gym's JSONL format (with --split: a directory made by `dataset collate`)")
    .requiredOption("-o, --output <out.jsonl>", "where the scored rollouts go (failures and metrics are written beside it)")
    .option("-e, --environment <name>", "environment for every row (default: each row's agent_ref)")
    .option("-n, --num-repeats <n|env=n,…>", "rollouts per row; per environment as mcqa=8,string_match=2,_default=1", repeats, 1)
    .option("--num-repeats-add-seed", 'give each rollout its own "seed" (its rollout index) in metadata.extra_body, which vLLM honours')
    .option("--limit <n>", "only the first n rows", positiveInt)
    .option("--temperature <t>", "override responses_create_params.temperature on every row", number)
    .option("--top-p <p>", "override responses_create_params.top_p on every row", number)
    .option("--max-output-tokens <n>", "override responses_create_params.max_output_tokens on every row", positiveInt)
    .option("--prompt-config <file.yaml>", "build each row's input from this template (NeMo Gym's prompt_config)")
    .addOption(
      new Option("--split <split>", "with a collated --input directory: <dir>/<split>.jsonl; with only -e: environments/<env>/data/<split>.jsonl").choices(
        SPLITS,
      ),
    )
    .addOption(
      new Option(
        "--tool-names <mode>",
        "mcp: the model sees the environment's tools as mcp__<environment>__<tool>, as an MCP client harness names them",
      ).choices(["plain", "mcp"]),
    )
    .option("--resume", "keep the rollouts already in --output and collect only the missing ones")
    .option("-c, --concurrency <n>", "rollouts in flight (--direct only; the queues pace themselves)", positiveInt, 16)
    .option("--direct", "call /run for each rollout instead of creating a job")
    .addOption(new Option("--url <gateway>", "an edgegym gateway; without it the local emulation is started and stopped").env("EDGEGYM_URL"))
    .option("--queue-url <sqs url>", "AWS: enqueue to this SQS rollouts queue (with --bucket) instead of a gateway")
    .option("--bucket <s3://bucket/prefix>", "AWS: where the job's inputs and results live")
    .addOption(new Option("--tenant <name>", "AWS: the tenant the job belongs to (a-z 0-9 -; its IAM policy is infra/aws.ts's)").env("EDGEGYM_TENANT"))
    .option("--allow-skipped", `exit 0 though bad input rows were skipped (without it: exit ${EXIT_ROWS_SKIPPED} once the rest has run)`)
    .addOption(new Option("--token <token>", "bearer token for the gateway").env("EDGEGYM_TOKEN"))
    .option("--remote-config <file>", "remote environments for the local emulation (default: EDGEGYM_REMOTE_CONFIG, else ./edgegym.remote.json)")
    .option("--state-dir <dir>", "with --url and no --token: the dev token that `edgegym dev --state-dir <dir>` saved", STATE_DIR)
    .action(run);
}

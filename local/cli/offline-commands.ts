// `edgegym export` and `edgegym reverify`: what to do with scored rollouts once collected, no model needed.
import { existsSync } from "node:fs";
import { Command, InvalidArgumentError, Option } from "commander";
import { type ExportOptions, exportRollouts } from "./export.js";
import { describeReverify, reverify } from "./reverify.js";

function number(value: string): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n)) throw new InvalidArgumentError("expected a number");
  return n;
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("expected a positive integer");
  return n;
}

export function exportCommand(): Command {
  return new Command("export")
    .description("scored rollouts → offline training data: SFT chat transcripts, or DPO preference pairs")
    .addOption(new Option("--format <format>", "sft or dpo").choices(["sft", "dpo"]).makeOptionMandatory())
    .requiredOption("-i, --input <rollouts.jsonl>", "scored rollouts (edgegym collect's output, or NeMo Gym's)")
    .requiredOption("-o, --output <file.jsonl>", "the training data")
    .option("--min-reward <r>", "sft: keep rollouts whose reward is at least r", number, 1)
    .option("--max-per-task <n>", "sft: at most n rollouts of one task, the best first", positiveInt)
    .addOption(
      new Option("--pairing <rule>", "dpo: best-worst (one pair a task) or all (every higher/lower pair)").choices(["best-worst", "all"]).default("best-worst"),
    )
    .option("--min-margin <m>", "dpo: the chosen reward beats the rejected one by at least m (and always by more than 0)", number, 0)
    .option("--reasoning", "keep the model's reasoning as reasoning_content on assistant turns (dropped by default)")
    .option("--metadata", "add metadata (environment, task, rollout, reward) to each record")
    .action(async (options: Omit<ExportOptions, "format"> & { format: "sft" | "dpo" }) => {
      if (!existsSync(options.input)) throw new Error(`cannot read ${options.input}: no such file`);
      const summary = await exportRollouts(options);
      process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
      process.stderr.write(`${options.format}: ${summary.written} record(s) from ${summary.read} line(s) → ${options.output}\n`);
      if (summary.written === 0) process.exitCode = 1;
    });
}

export function reverifyCommand(): Command {
  return new Command("reverify")
    .description("re-score recorded rollouts with the current environment code (no model calls) and report where the reward changed")
    .requiredOption("-i, --input <rollouts.jsonl>", "scored rollouts")
    .option("-e, --environment <name>", "the environment of every record (default: each record's agent_ref)")
    .option("--dataset <rows.jsonl>", "the rows the rollouts came from, for task fields the records lack (matched by input)")
    .option("-o, --output <file.jsonl>", "write each re-verified record, with previous_reward")
    .option("--remote-config <file>", "remote environments (default: EDGEGYM_REMOTE_CONFIG, else ./edgegym.remote.json); re-verified when stateless")
    .action(async (options: { input: string; environment?: string; dataset?: string; output?: string; remoteConfig?: string }) => {
      if (!existsSync(options.input)) throw new Error(`cannot read ${options.input}: no such file`);
      const report = await reverify(options);
      for (const line of describeReverify(options.input, report)) process.stdout.write(`${line}\n`);
      if (report.changed.length > 0 || report.errors.length > 0) process.exitCode = 1;
    });
}

// `edgegym dataset validate | collate | render`: NeMo Gym's data preparation verbs (gym dataset collate / render, ng_prepare_data).
import { createWriteStream, existsSync, renameSync, rmSync } from "node:fs";
import { once } from "node:events";
import { Command } from "commander";
import { collate, parseCollateInput, type CollateInput } from "./collate.js";
import { type DatasetProblem, formatProblem } from "./dataset.js";
import { loadPromptConfig } from "./prompt-config.js";
import { MAX_LINE_BYTES } from "../../http/json.js";
import { checkRow, fileLines } from "./row-check.js";
import { describeValidation, validateFile } from "./validate.js";

const reportProblem = (problem: DatasetProblem) => process.stderr.write(`${formatProblem(problem)}\n`);

/** Writes the templated rows (NeMo Gym's materialize_prompts); nothing is written when any row is refused. */
export async function renderDataset(
  input: string,
  promptConfigFile: string,
  output: string,
  onProblem = reportProblem,
): Promise<{ rows: number; problems: number }> {
  if (!existsSync(input)) throw new Error(`cannot read ${input}: no such file`);
  const promptConfig = loadPromptConfig(promptConfigFile);
  const partial = `${output}.partial`;
  const out = createWriteStream(partial);
  let rows = 0;
  let problems = 0;
  try {
    for await (const { line, text, problem } of fileLines(input, { maxLineBytes: MAX_LINE_BYTES })) {
      const verdict = await checkRow(text, input, line, { lineProblem: problem, promptConfig, known: [], protocolOnly: true });
      if (!verdict.ok) {
        problems += verdict.problems.length;
        verdict.problems.forEach(onProblem);
        continue;
      }
      rows++;
      if (!out.write(`${JSON.stringify({ ...verdict.raw, prompt_config_used: promptConfig.file })}\n`)) await once(out, "drain");
    }
  } finally {
    await new Promise((resolve) => out.end(resolve));
  }
  if (problems > 0) rmSync(partial, { force: true });
  else renameSync(partial, output);
  return { rows, problems };
}

export function datasetCommand(): Command {
  const dataset = new Command("dataset").description("check and prepare datasets (NeMo Gym's gym dataset …)");

  dataset
    .command("validate")
    .description("check every row (protocol; the environment's task fields and tools) and print NeMo Gym's dataset metrics; exit 1 on any bad row")
    .argument("<files...>", "JSONL datasets")
    .option("-e, --environment <name>", "check every row against this environment (default: each row's agent_ref, if it names one)")
    .option("--prompt-config <file.yaml>", "apply this prompt template first (rows without input)")
    .action(async (files: string[], options: { environment?: string; promptConfig?: string }) => {
      const promptConfig = options.promptConfig ? loadPromptConfig(options.promptConfig) : undefined;
      let bad = 0;
      for (const file of files) {
        const result = await validateFile(file, { environment: options.environment, promptConfig, onProblem: reportProblem });
        bad += result.badRows;
        process.stdout.write(`${describeValidation(result)}\n`);
      }
      if (bad > 0) {
        process.stderr.write(`${bad} bad row(s)\n`);
        process.exitCode = 1;
      }
    });

  dataset
    .command("collate")
    .description("datasets of several environments → <dir>/<split>.jsonl (agent_ref on each row) and <dir>/<split>_metrics.json")
    .requiredOption(
      "-d, --dataset <environment:split:file.jsonl[:num_repeats]>",
      "one input (repeat the option); split is train, validation or example",
      (value: string, previous: CollateInput[] = []) => [...previous, parseCollateInput(value)],
    )
    .requiredOption("-o, --output-dir <dir>", "where the collated files go")
    .action(async (options: { dataset: CollateInput[]; outputDir: string }) => {
      const result = await collate(options.dataset, options.outputDir, reportProblem);
      if (result.problems > 0) {
        process.stderr.write(`${result.problems} problem(s): nothing was written\n`);
        process.exitCode = 1;
        return;
      }
      for (const output of result.outputs) process.stdout.write(`${output.split}: ${output.file} (${output.rows} rows), metrics: ${output.metricsFile}\n`);
    });

  dataset
    .command("render")
    .description("apply a prompt template (NeMo Gym's prompt_config: system, user with {field}) to rows without input")
    .requiredOption("-i, --input <rows.jsonl>", "rows with task fields and no responses_create_params.input")
    .requiredOption("--prompt-config <file.yaml>", "the template: `user` (required) and `system`")
    .requiredOption("-o, --output <out.jsonl>", "the materialized rows")
    .action(async (options: { input: string; promptConfig: string; output: string }) => {
      const result = await renderDataset(options.input, options.promptConfig, options.output);
      if (result.problems > 0) {
        process.stderr.write(`${result.problems} problem(s): nothing was written\n`);
        process.exitCode = 1;
        return;
      }
      process.stdout.write(`rendered ${result.rows} row(s) to ${options.output}\n`);
    });

  return dataset;
}

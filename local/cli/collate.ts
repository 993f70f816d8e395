// `edgegym dataset collate` (NeMo Gym's `gym dataset collate` / ng_prepare_data): datasets of several environments → one JSONL per split.
import { createWriteStream, existsSync, mkdirSync, renameSync, rmSync, writeFileSync, type WriteStream } from "node:fs";
import { once } from "node:events";
import path from "node:path";
import type { DatasetRow } from "../../protocol/index.js";
import { discoverEnvironments } from "../environments.js";
import type { DatasetProblem } from "./dataset.js";
import { DatasetMetrics } from "./dataset-metrics.js";
import { MAX_LINE_BYTES } from "../../http/json.js";
import { checkRow, fileLines } from "./row-check.js";

/** NeMo Gym's dataset types that collate writes (its `benchmark` type has its own preparation). */
export const SPLITS = ["train", "validation", "example"] as const;
export type Split = (typeof SPLITS)[number];

export interface CollateInput {
  environment: string;
  split: Split;
  file: string;
  /** Each line written this many times (NeMo Gym's num_repeats: abc → aabbcc). */
  numRepeats: number;
}

/** `<environment>:<split>:<file.jsonl>[:<num_repeats>]`, the command line's form of one NeMo Gym dataset config. */
export function parseCollateInput(spec: string): CollateInput {
  const parts = spec.split(":");
  const repeats = parts.length >= 4 && /^\d+$/.test(parts.at(-1)!) ? Number(parts.pop()) : 1;
  const [environment, split, ...file] = parts;
  if (!environment || !split || file.length === 0) throw new Error(`--dataset ${spec}: expected <environment>:<split>:<file.jsonl>[:<num_repeats>]`);
  if (!(SPLITS as readonly string[]).includes(split)) throw new Error(`--dataset ${spec}: split "${split}" is not one of ${SPLITS.join(", ")}`);
  if (repeats < 1) throw new Error(`--dataset ${spec}: num_repeats must be at least 1`);
  return { environment, split: split as Split, file: file.join(":"), numRepeats: repeats };
}

export interface CollateResult {
  problems: number;
  /** Per split written: the JSONL and its metrics file. */
  outputs: { split: Split; file: string; metricsFile: string; rows: number }[];
}

/** The agent NeMo Gym's collate stamps on each row; the gateway resolves `<environment>_simple_agent` to the environment. */
function agentRef(environment: string): { type: string; name: string } {
  return { type: "responses_api_agents", name: `${environment}_simple_agent` };
}

async function write(out: WriteStream, text: string): Promise<void> {
  if (!out.write(text)) await once(out, "drain");
}

export async function collate(inputs: CollateInput[], outputDir: string, onProblem: (p: DatasetProblem) => void): Promise<CollateResult> {
  const known = discoverEnvironments();
  for (const input of inputs) {
    if (!known.includes(input.environment)) throw new Error(`no environment "${input.environment}" (known: ${known.join(", ")})`);
    if (!existsSync(input.file)) throw new Error(`cannot read ${input.file}: no such file`);
  }
  mkdirSync(outputDir, { recursive: true });
  const splits = [...new Set(inputs.map((input) => input.split))];
  const temp = (split: Split) => path.join(outputDir, `.${split}.jsonl.partial`);
  const streams = new Map(splits.map((split) => [split, createWriteStream(temp(split))]));
  const perSplit = new Map(splits.map((split) => [split, new DatasetMetrics()]));
  const rowsPerSplit = new Map<Split, number>();
  const datasets: Record<Split, Record<string, unknown>[]> = { train: [], validation: [], example: [] };
  let problems = 0;
  try {
    for (const input of inputs) {
      const metrics = new DatasetMetrics();
      const out = streams.get(input.split)!;
      for await (const { line, text, problem } of fileLines(input.file, { maxLineBytes: MAX_LINE_BYTES })) {
        // collate stamps agent_ref itself (as NeMo Gym's does), so a row's own is not held against it.
        const verdict = await checkRow(text, input.file, line, { lineProblem: problem, environment: input.environment, known });
        if (!verdict.ok) {
          problems += verdict.problems.length;
          for (const problem of verdict.problems) onProblem(problem);
          continue;
        }
        await writeRow(out, verdict.raw, input, metrics);
      }
      perSplit.get(input.split)!.add(metrics);
      rowsPerSplit.set(input.split, (rowsPerSplit.get(input.split) ?? 0) + metrics.examples);
      datasets[input.split].push({
        name: path.basename(input.file).replace(/\.jsonl$/, ""),
        environment: input.environment,
        type: input.split,
        jsonl_fpath: input.file,
        num_repeats: input.numRepeats,
        ...metrics.toJSON(),
      });
    }
  } finally {
    await Promise.all([...streams.values()].map((out) => new Promise((resolve) => out.end(resolve))));
  }
  if (problems > 0) {
    for (const split of splits) rmSync(temp(split), { force: true });
    return { problems, outputs: [] };
  }
  const outputs: CollateResult["outputs"] = [];
  for (const split of splits) {
    const file = path.join(outputDir, `${split}.jsonl`);
    const metricsFile = path.join(outputDir, `${split}_metrics.json`);
    renameSync(temp(split), file);
    writeFileSync(metricsFile, `${JSON.stringify({ type: split, ...perSplit.get(split)!.toJSON(), datasets: datasets[split] }, null, 2)}\n`);
    outputs.push({ split, file, metricsFile, rows: rowsPerSplit.get(split) ?? 0 });
  }
  return { problems, outputs };
}

async function writeRow(out: WriteStream, raw: DatasetRow, input: CollateInput, metrics: DatasetMetrics): Promise<void> {
  const row = { ...raw, agent_ref: agentRef(input.environment) };
  const line = `${JSON.stringify(row)}\n`;
  metrics.observe(row, input.numRepeats);
  for (let i = 0; i < input.numRepeats; i++) await write(out, line);
}

// `edgegym dataset validate`: stream each file, report every bad row as file:line: path: problem, and NeMo Gym's dataset metrics.
import { existsSync } from "node:fs";
import { discoverEnvironments } from "../environments.js";
import type { DatasetProblem } from "./dataset.js";
import { DatasetMetrics } from "./dataset-metrics.js";
import type { LoadedPromptConfig } from "./prompt-config.js";
import { MAX_LINE_BYTES } from "../../http/json.js";
import { checkRow, fileLines } from "./row-check.js";

export interface ValidateOptions {
  environment?: string;
  promptConfig?: LoadedPromptConfig;
  /** Each problem as it is found (a file full of bad rows is never held in memory). */
  onProblem(problem: DatasetProblem): void;
}

export interface FileValidation {
  file: string;
  rows: number;
  badRows: number;
  /** Rows checked against the protocol only: their agent_ref names no bundled environment, and none was given. */
  protocolOnly: number;
  /** Per environment the rows were checked against. */
  environments: Record<string, number>;
  metrics: DatasetMetrics;
}

export async function validateFile(file: string, options: ValidateOptions): Promise<FileValidation> {
  if (!existsSync(file)) throw new Error(`cannot read ${file}: no such file`);
  const known = discoverEnvironments();
  if (options.environment && !known.includes(options.environment)) {
    throw new Error(`no environment "${options.environment}" (known: ${known.join(", ")})`);
  }
  const result: FileValidation = { file, rows: 0, badRows: 0, protocolOnly: 0, environments: {}, metrics: new DatasetMetrics() };
  for await (const { line, text, problem } of fileLines(file, { maxLineBytes: MAX_LINE_BYTES })) {
    result.rows++;
    const verdict = await checkRow(text, file, line, { lineProblem: problem, environment: options.environment, promptConfig: options.promptConfig, known });
    if (!verdict.ok) {
      result.badRows++;
      for (const problem of verdict.problems) options.onProblem(problem);
      continue;
    }
    if (verdict.environment) result.environments[verdict.environment] = (result.environments[verdict.environment] ?? 0) + 1;
    else result.protocolOnly++;
    result.metrics.observe(verdict.raw);
  }
  return result;
}

/** The summary a user reads after the problems: counts, what each row was checked against, the metrics. */
export function describeValidation(result: FileValidation): string {
  const against = Object.entries(result.environments).map(([name, n]) => `${n} against ${name}`);
  if (result.protocolOnly) against.push(`${result.protocolOnly} against the protocol only (no environment named)`);
  return [
    `${result.file}: ${result.rows} row(s), ${result.badRows} bad${against.length ? `; checked ${against.join(", ")}` : ""}`,
    JSON.stringify(result.metrics.toJSON(), null, 2),
  ].join("\n");
}

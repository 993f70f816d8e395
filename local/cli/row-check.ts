// One dataset line checked as `edgegym dataset validate` does: JSON, prompt template, the protocol, the environment's fields and tools.
import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import { jsonLimitError } from "../../http/json.js";
import { readLines } from "../../http/jsonl.js";
import type { DatasetRow } from "../../protocol/index.js";
import { environmentFromAgentName } from "./agent-ref.js";
import { type DatasetProblem, parseValue } from "./dataset.js";
import { type LoadedEnvironment, loadEnvironment } from "./environment-runner.js";
import { applyPromptConfig, type LoadedPromptConfig } from "./prompt-config.js";
import { toolProblems } from "./tool-check.js";

export interface RowCheckOptions {
  /** Every row is for this environment; without it, a row's agent_ref names its environment (if bundled). */
  environment?: string;
  promptConfig?: LoadedPromptConfig;
  /** The bundled environments (for agent_ref names). */
  known: string[];
  /** Skip the environment checks: the protocol (and template) only. */
  protocolOnly?: boolean;
  /** Environments this process can load and check against (a gateway may serve others): the rest get the protocol only. */
  bundled?: readonly string[];
  /** What fileLines found wrong with the line itself (its bytes), if anything. */
  lineProblem?: string;
}

export type RowVerdict =
  /** `raw` is the row as written (after the template): NeMo Gym's metrics count what the file says, not parsed defaults. */
  { ok: true; row: DatasetRow; raw: DatasetRow; environment?: string } | { ok: false; problems: DatasetProblem[]; environment?: string };

/** A line of a file: its text, and why it cannot be used, if it cannot (not UTF-8, or longer than the limit). */
export interface FileLine {
  line: number;
  text: string;
  problem?: string;
}

/**
 * Lines of a file, 1-based, read as a stream: a file of any size in bounded memory. Blank lines are skipped. A line that is
 * not UTF-8, or (with `maxLineBytes`) too long, comes with its problem (and no text), as the gateway would refuse it.
 */
export async function* fileLines(file: string, options: { maxLineBytes?: number } = {}): AsyncGenerator<FileLine> {
  const stream = Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>;
  for await (const read of readLines(stream, options)) {
    if ("text" in read) {
      if (read.text.trim() !== "") yield { line: read.line, text: read.text };
    } else {
      yield { line: read.line, text: "", problem: read.problem === "too_long" ? `longer than ${options.maxLineBytes} bytes` : "not valid UTF-8" };
    }
  }
}

/** The environment-specific problems: missing or malformed task fields, and the tools (see tool-check.ts). */
function environmentProblems(environment: LoadedEnvironment, row: DatasetRow): { path: string; message: string }[] {
  return [...environment.taskProblems(row), ...toolProblems(environment, row)];
}

export async function checkRow(text: string, file: string, line: number, options: RowCheckOptions): Promise<RowVerdict> {
  if (options.lineProblem) return { ok: false, problems: [{ file, line, field: "", message: options.lineProblem }] };
  // The gateway's limits (nesting, string length): a row it would refuse is refused here, with its line.
  const refused = jsonLimitError(text, "the line");
  if (refused) return { ok: false, problems: [{ file, line, field: "", message: refused.message }] };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, problems: [{ file, line, field: "", message: `not valid JSON (${error instanceof Error ? error.message : String(error)})` }] };
  }
  if (options.promptConfig && value && typeof value === "object" && !Array.isArray(value)) {
    const templated = applyPromptConfig(options.promptConfig, value as Record<string, unknown>);
    if ("problem" in templated) return { ok: false, problems: [{ file, line, ...templated.problem }] };
    value = templated.row;
  }
  const verdict = parseValue(value, file, line);
  if (Array.isArray(verdict)) return { ok: false, problems: verdict };
  const row = verdict;
  const raw = value as DatasetRow;
  const agentName = row.agent_ref?.name;
  const named = agentName ? environmentFromAgentName(agentName, options.known) : undefined;
  const environment = options.environment ?? named;
  if (options.protocolOnly || !environment || (options.bundled && !options.bundled.includes(environment))) return { ok: true, row, raw, environment };
  // An explicit environment wins over the row's agent_ref, as the gateway's jobs do: no mismatch to report.
  const problems: DatasetProblem[] = [];
  const loaded = await loadEnvironment(environment);
  for (const problem of environmentProblems(loaded, row)) problems.push({ file, line, field: problem.path, message: problem.message });
  return problems.length ? { ok: false, problems, environment } : { ok: true, row, raw, environment };
}

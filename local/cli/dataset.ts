// Reads a NeMo Gym JSONL dataset: every good row kept, every bad line reported by file, line and field.
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { escapeControl } from "../../http/log.js";
import { DatasetRow, issuesOf } from "../../protocol/index.js";

export interface DatasetEntry {
  /** 0-based index of the row among the file's data lines: NeMo Gym's task index. */
  taskIndex: number;
  line: number;
  row: DatasetRow;
}

export interface DatasetProblem {
  file: string;
  line: number;
  field: string;
  message: string;
}

/** `file:line: field: message`, on one line: a field name or message quoting the row has its control characters escaped. */
export function formatProblem(problem: DatasetProblem): string {
  return escapeControl(`${problem.file}:${problem.line}: ${problem.field ? `${problem.field}: ` : ""}${problem.message}`);
}

/** One line's verdict: a row, or the problems that keep it out. */
export function parseLine(text: string, file: string, line: number): DatasetRow | DatasetProblem[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return [{ file, line, field: "", message: `not valid JSON (${error instanceof Error ? error.message : String(error)})` }];
  }
  return parseValue(value, file, line);
}

/** A parsed JSON value's verdict against the protocol. */
export function parseValue(value: unknown, file: string, line: number): DatasetRow | DatasetProblem[] {
  const parsed = DatasetRow.safeParse(value);
  if (parsed.success) return parsed.data;
  return issuesOf(parsed.error).map((issue) => ({ file, line, field: issue.path.join("."), message: issue.message }));
}

export async function readDataset(file: string, limit?: number): Promise<{ entries: DatasetEntry[]; problems: DatasetProblem[] }> {
  const entries: DatasetEntry[] = [];
  const problems: DatasetProblem[] = [];
  const lines = createInterface({ input: createReadStream(file, "utf8"), crlfDelay: Infinity });
  let lineNumber = 0;
  let taskIndex = 0;
  for await (const text of lines) {
    lineNumber++;
    if (text.trim() === "") continue;
    if (limit !== undefined && taskIndex >= limit) break;
    const verdict = parseLine(text, file, lineNumber);
    if (Array.isArray(verdict)) problems.push(...verdict);
    else entries.push({ taskIndex, line: lineNumber, row: verdict });
    taskIndex++;
  }
  lines.close();
  return { entries, problems };
}

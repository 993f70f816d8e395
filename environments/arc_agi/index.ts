// Port of NeMo Gym's arc_agi: the first well-formed integer grid in the answer (boxed first) must equal expected_output.
import type { Response } from "../../protocol/index.js";
import { defineEnvironment, z } from "../sdk/index.js";

/** Python's str.isspace() characters: `\s` in NeMo Gym's patterns and in str.strip(). */
const WHITESPACE = "\\t\\n\\v\\f\\r\\x1C-\\x1F \\x85\\xA0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000";
const S = `[${WHITESPACE}]`;
// Python's \d is any Unicode decimal digit; such digits then fail json.loads, as here.
const GRID = `\\[${S}*\\[[\\p{Nd}${WHITESPACE},\\[\\]]+\\]${S}*\\]`;
const BOXED_GRID = new RegExp(`\\\\boxed\\{(${GRID})\\}`, "gu");
const BARE_GRID = new RegExp(GRID, "gu");
const SPACES = new RegExp(`${S}+`, "gu");
const EDGES = new RegExp(`^${S}+|${S}+$`, "gu");

type Grid = number[][];

const Task = z.object({
  train: z.array(z.record(z.string(), z.unknown())).default([]),
  test_input: z.array(z.array(z.number().int())).default([]),
  expected_output: z.array(z.array(z.number().int())).default([]),
  task_id: z.string().nullish(),
});

/** Every text part of every assistant message, one per line, stripped. */
function assistantText(response: Response): string {
  const texts: string[] = [];
  for (const item of response.output) {
    if (item.type !== "message" || item.role !== "assistant") continue;
    if (typeof item.content === "string") texts.push(item.content);
    else for (const part of item.content) if (typeof part.text === "string") texts.push(part.text);
  }
  return texts.join("\n").replace(EDGES, "");
}

/** A JSON list of lists of integers whose first row is not empty (later rows may be). */
function asGrid(value: unknown): Grid | null {
  if (!Array.isArray(value) || value.length === 0) return null;
  // The candidate holds only digits, commas and brackets, so every JSON number in it is an integer.
  if (!value.every((row) => Array.isArray(row) && row.every((cell) => typeof cell === "number"))) return null;
  const grid = value as Grid;
  return grid[0]!.length > 0 ? grid : null;
}

/** The first candidate that parses as a grid: \boxed{[[...]]} candidates if any, otherwise bare [[...]] ones. */
export function parseGrid(text: string): Grid | null {
  const boxed = [...text.matchAll(BOXED_GRID)].map((m) => m[1]!);
  const candidates = boxed.length > 0 ? boxed : [...text.matchAll(BARE_GRID)].map((m) => m[0]);
  for (const candidate of candidates) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(candidate.replace(SPACES, ""));
    } catch {
      // Not JSON: not a grid; the next candidate may be one.
      continue;
    }
    const grid = asGrid(parsed);
    if (grid) return grid;
  }
  return null;
}

function sameGrid(a: Grid, b: Grid): boolean {
  return a.length === b.length && a.every((row, i) => row.length === b[i]!.length && row.every((cell, j) => cell === b[i]![j]));
}

export default defineEnvironment({
  name: "arc_agi",
  description: "ARC-AGI puzzles: the grid in the answer (\\boxed{[[...]]} preferred) must equal expected_output.",
  task: Task,
  tools: {},
  verify: (request) => {
    const predicted = parseGrid(assistantText(request.response));
    const correct = predicted !== null && sameGrid(predicted, request.expected_output);
    return { reward: correct ? 1.0 : 0.0, predicted_output: predicted, extraction_successful: predicted !== null };
  },
});

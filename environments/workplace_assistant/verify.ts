// NeMo Gym's is_correct: replay the model's calls and the expected ones on fresh copies of the tables, then compare the states.
import { pyJsonLoads, z } from "../sdk/index.js";
import type { PyValue } from "./python.js";
import { type Frame, MemoryTables, type ParsedTable, type TableName } from "./tables.js";
import { invoke } from "./toolkit.js";

/** The task fields of a workplace_assistant row (WorkbenchVerifyRequest's own fields). */
export const WorkplaceTask = z.object({
  /** The expected calls ({name, arguments: JSON text}); pydantic also takes a str, which replays as no call at all. */
  ground_truth: z.union([z.array(z.record(z.string(), z.string())), z.string()]),
  /** An int; pydantic also takes its digits as text, and the record then carries the int. */
  id: z.union([
    z.number().int(),
    z
      .string()
      .regex(/^\s*[-+]?\d+\s*$/)
      .transform(Number),
  ]),
  category: z.string(),
  environment_name: z.string(),
});
export type WorkplaceTask = z.infer<typeof WorkplaceTask>;

/** One call to replay: a function_call item of the response, or an entry of ground_truth. */
export type Call = Readonly<Record<string, unknown>>;

/** The tables verify compares, and the columns compared as they are (case matters there); the others are lowercased. */
const COMPARED: TableName[] = ["calendar_events", "emails", "plots", "project_tasks", "customer_relationship_manager_data"];
const CASE_SENSITIVE = new Set(["status", "list_name", "board"]);

/**
 * execute_actions_and_reset_state: each call on a fresh copy of the tables, as `functions[name](**json.loads(arguments))`;
 * a call that raises (unknown tool, bad JSON, unexpected argument, any error inside) is skipped, keeping whatever it
 * changed before raising.
 */
export function replay(calls: readonly Call[] | string, original: Record<TableName, ParsedTable>): MemoryTables {
  const tables = new MemoryTables(original);
  // Iterating a str gives its characters, and `"x"["name"]` raises: nothing is replayed.
  if (typeof calls === "string") return tables;
  for (const call of calls) {
    try {
      if (!("name" in call) || !("arguments" in call)) continue;
      const args = pyJsonLoads<unknown>(String(call.arguments), { dict: (pairs) => Object.fromEntries(pairs) });
      invoke(tables, String(call.name), args);
    } catch {
      // NeMo Gym prints the error and goes on with the next call.
    }
  }
  return tables;
}

/** `df[col].str.lower()` for every column but status, list_name and board: a cell that is not a str becomes NaN. */
function normalized(column: string, cell: PyValue): PyValue {
  if (CASE_SENSITIVE.has(column)) return cell;
  return typeof cell === "string" ? cell.toLowerCase() : null;
}

/** Element equality in DataFrame.equals: NaN matches NaN, otherwise Python's == (1 == 1.0 == True, "1" != 1). */
function sameCell(a: PyValue, b: PyValue): boolean {
  if (a === null || b === null) return a === b;
  if (typeof a === "string" || typeof b === "string") return a === b;
  return Number(a) === Number(b);
}

/** DataFrame.equals after the lowercasing: the same columns, index labels and cells, in the same order. */
export function sameFrame(a: Frame, b: Frame): boolean {
  if (a.columns.length !== b.columns.length || a.columns.some((c, i) => c !== b.columns[i])) return false;
  if (a.rows.length !== b.rows.length || a.labels.some((label, i) => label !== b.labels[i])) return false;
  return a.rows.every((row, i) =>
    a.columns.every((column) => sameCell(normalized(column, row[column] ?? null), normalized(column, b.rows[i]![column] ?? null))),
  );
}

/** The tables whose states differ between two replays (NeMo Gym only says whether all of them match). */
export function differingTables(predicted: MemoryTables, expected: MemoryTables): TableName[] {
  return COMPARED.filter((table) => !sameFrame(predicted.frames[table], expected.frames[table]));
}

/** is_correct(predicted_calls, ground_truth): 1.0 when the two replays leave every compared table equal, else 0.0. */
export function stateMatchReward(predicted: readonly Call[], groundTruth: readonly Call[] | string, original: Record<TableName, ParsedTable>) {
  const differing = differingTables(replay(predicted, original), replay(groundTruth, original));
  return { reward: differing.length === 0 ? 1.0 : 0.0, differing };
}

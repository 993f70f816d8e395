// workplace_assistant's tables for tests in Node: read from the CSVs, or NeMo Gym's mock DataFrames in their place.
import { loadTable, tablesFromCsv } from "../../environments/workplace_assistant/csv.js";
import { readCsvFiles } from "../../environments/workplace_assistant/generate-tables.js";
import type { PyValue } from "../../environments/workplace_assistant/python.js";
import { MemoryTables, type ParsedTable, type Row, type TableName } from "../../environments/workplace_assistant/tables.js";
import { callTool } from "../../environments/workplace_assistant/toolkit.js";

let parsed: Record<TableName, ParsedTable> | undefined;

/** The original tables, parsed from the CSVs (once; each caller gets its own record to replace tables in). */
export function originalTables(): Record<TableName, ParsedTable> {
  parsed ??= tablesFromCsv(readCsvFiles());
  return { ...parsed };
}

/** pd.DataFrame(list_of_dicts): the columns in order of first appearance, missing cells NaN. */
export function frame(rows: Record<string, PyValue>[]): ParsedTable {
  const columns: string[] = [];
  for (const row of rows) for (const key of Object.keys(row)) if (!columns.includes(key)) columns.push(key);
  return { columns, rows: rows.map((row) => Object.fromEntries(columns.map((c) => [c, row[c] ?? null])) as Row) };
}

/** The original tables with some replaced by mock DataFrames, as NeMo Gym's tests patch pd.read_csv (reset_state still runs). */
export function mocked(mocks: Partial<Record<TableName, Record<string, PyValue>[]>>): Record<TableName, ParsedTable> {
  const tables = originalTables();
  for (const [name, rows] of Object.entries(mocks)) tables[name as TableName] = loadTable(name as TableName, frame(rows));
  return tables;
}

/** A session over in-memory tables: call(tool, args) answers as the route does (its `output`). */
export function session(tables: Record<TableName, ParsedTable> = originalTables()) {
  const db = new MemoryTables(tables);
  return { db, call: (name: string, args: Record<string, unknown> = {}) => callTool(db, name, args).output };
}

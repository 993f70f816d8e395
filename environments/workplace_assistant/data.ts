// The original tables, bundled with the Worker (tables.generated.ts, made from NeMo Gym's CSVs) and read once per isolate.
import type { SeedData } from "./sqlite.js";
import { type ParsedTable, type Row, TABLE_NAMES, type TableName } from "./tables.js";
import { ORIGINAL_TABLES } from "./tables.generated.js";

let original: Record<TableName, ParsedTable> | undefined;

/** reset_state() of every tool: fresh tables for verify's replays. */
export function originalTables(): Record<TableName, ParsedTable> {
  if (!original) {
    const tables = {} as Record<TableName, ParsedTable>;
    for (const name of TABLE_NAMES) {
      const { columns, json } = ORIGINAL_TABLES[name];
      const rows = (JSON.parse(json) as Row[keyof Row][][]).map((cells) => Object.fromEntries(columns.map((c, i) => [c, cells[i] ?? null])) as Row);
      tables[name] = { columns: [...columns], rows };
    }
    original = tables;
  }
  return original;
}

/** The same tables as JSON text, which a session's seed binds as they are. */
export const originalSeed = (): SeedData => ORIGINAL_TABLES;

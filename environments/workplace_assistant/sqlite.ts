// A session's tables in its Durable Object's SQLite: seeded in one statement per table, read and written by the tools.
import type { PyValue } from "./python.js";
import { booleanColumns, type ParsedTable, type Row, TABLE_NAMES, TABLES, type TableName, type Tables } from "./tables.js";

/** Our tables' names in the session's database, clear of the Durable Object's own `_cf_*` tables. */
const sqlName = (table: TableName) => `"wa_${table}"`;
const quote = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;

/** SQLite binds no booleans: Python's True == 1 anyway, and boolean columns are read back as booleans. */
const bindable = (value: PyValue): string | number | null => (typeof value === "boolean" ? Number(value) : value);

/** The original tables, each as one JSON array of rows (arrays of cells in column order), serialized once per isolate. */
export type SeedData = Record<TableName, { columns: readonly string[]; json: string }>;

export function seedData(tables: Record<TableName, ParsedTable>): SeedData {
  const data = {} as SeedData;
  for (const name of TABLE_NAMES) {
    const columns = TABLES[name].columns;
    data[name] = { columns, json: JSON.stringify(tables[name].rows.map((row) => columns.map((c) => row[c] ?? null))) };
  }
  return data;
}

/**
 * Creates the session's tables afresh from the original data: one INSERT … SELECT FROM json_each(?) per table, the whole
 * table bound as a single JSON parameter (a Durable Object binds at most 100 parameters a statement, so row-by-row
 * inserts would take thousands of statements). Columns carry no type, so each cell keeps the storage class it was
 * given: text stays text, a number the model sent stays a number, and `=` compares them as Python's == does.
 */
export function seedTables(sql: SqlStorage, data: SeedData): void {
  for (const name of TABLE_NAMES) {
    const { columns, json } = data[name];
    sql.exec(`DROP TABLE IF EXISTS ${sqlName(name)}`);
    sql.exec(`CREATE TABLE ${sqlName(name)} (${columns.map(quote).join(", ")})`);
    const cells = columns.map((_, i) => `json_extract(value, '$[${i}]')`).join(", ");
    sql.exec(`INSERT INTO ${sqlName(name)} SELECT ${cells} FROM json_each(?) ORDER BY key`, json);
  }
}

/** Whether seed_session has made this session's tables (they are gone once the session expires). */
export function isSeeded(sql: SqlStorage): boolean {
  return sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", `wa_${TABLE_NAMES[0]}`).toArray().length > 0;
}

/** The Tables the tools use, over the session's SQLite; rows come back in insertion (rowid) order. */
export class SqliteTables implements Tables {
  constructor(private readonly sql: SqlStorage) {}

  private read(table: TableName, where = "", ...bindings: (string | number | null)[]): Row[] {
    // Cells are text, numbers or NULL: nothing here stores a blob.
    const rows = this.sql.exec(`SELECT * FROM ${sqlName(table)} ${where} ORDER BY rowid`, ...bindings).toArray() as Row[];
    const booleans = booleanColumns(table);
    if (booleans.length === 0) return rows;
    return rows.map((row) => ({ ...row, ...Object.fromEntries(booleans.map((c) => [c, row[c] === null ? null : Boolean(row[c])])) }));
  }

  columns(table: TableName): string[] {
    return [...TABLES[table].columns];
  }

  rows(table: TableName): Row[] {
    return this.read(table);
  }

  find(table: TableName, column: string, value: PyValue): Row[] {
    return this.read(table, `WHERE ${quote(column)} = ?`, bindable(value));
  }

  append(table: TableName, row: Row): void {
    const columns = Object.keys(row);
    this.sql.exec(
      `INSERT INTO ${sqlName(table)} (${columns.map(quote).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
      ...columns.map((c) => bindable(row[c] ?? null)),
    );
  }

  remove(table: TableName, column: string, value: PyValue): void {
    this.sql.exec(`DELETE FROM ${sqlName(table)} WHERE ${quote(column)} = ?`, bindable(value));
  }

  update(table: TableName, column: string, key: PyValue, field: string, value: PyValue): void {
    this.sql.exec(`UPDATE ${sqlName(table)} SET ${quote(field)} = ? WHERE ${quote(column)} = ?`, bindable(value), bindable(key));
  }

  toFloat(table: TableName, column: string): void {
    this.sql.exec(`UPDATE ${sqlName(table)} SET ${quote(column)} = CAST(${quote(column)} AS REAL) WHERE typeof(${quote(column)}) = 'text'`);
  }
}

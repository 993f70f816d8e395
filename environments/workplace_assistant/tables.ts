// The workplace databases as the tools see them: tables of rows, read as pandas reads NeMo Gym's CSVs, kept in memory or SQLite.
import { equal, type PyValue } from "./python.js";

/** The tables a session holds: NeMo Gym's five DataFrames, the analytics tool's created plots, and the company directory. */
export const TABLES = {
  emails: { columns: ["email_id", "inbox/outbox", "sender/recipient", "subject", "sent_datetime", "body"] },
  calendar_events: {
    columns: ["event_id", "event_name", "participant_email", "event_start", "duration"],
    // create_event concatenates without ignore_index, so its new row carries the label 0 (the others renumber).
    appendKeepsLabels: true,
  },
  analytics_data: {
    columns: ["date_of_visit", "visitor_id", "page_views", "session_duration_seconds", "traffic_source", "user_engaged"],
    // reset_state: `df["user_engaged"] = df["user_engaged"] == "True"`.
    booleans: ["user_engaged"],
  },
  project_tasks: { columns: ["task_id", "task_name", "assigned_to_email", "list_name", "due_date", "board"] },
  customer_relationship_manager_data: {
    columns: [
      "customer_id",
      "assigned_to_email",
      "customer_name",
      "customer_email",
      "customer_phone",
      "last_contact_date",
      "product_interest",
      "status",
      "follow_up_by",
      "notes",
    ],
  },
  plots: { columns: ["file_path"] },
  company_directory: { columns: ["email_address"] },
} as const;

export type TableName = keyof typeof TABLES;
export const TABLE_NAMES = Object.keys(TABLES) as TableName[];

type TableSpec = { columns: readonly string[]; appendKeepsLabels?: boolean; booleans?: readonly string[] };
/** The columns of a table that hold booleans (read back from SQLite's 0/1). */
export const booleanColumns = (table: TableName): readonly string[] => (TABLES[table] as TableSpec).booleans ?? [];
const appendKeepsLabels = (table: TableName): boolean => (TABLES[table] as TableSpec).appendKeepsLabels ?? false;

/** A row: column name → cell; null is pandas' NaN/None. */
export type Row = Record<string, PyValue>;

/** What the tools read and write; implemented over a session's SQLite and over memory (verify's replays, unit tests). */
export interface Tables {
  /** The DataFrame's columns. */
  columns(table: TableName): string[];
  /** Every row of a table, in the DataFrame's order. */
  rows(table: TableName): Row[];
  /** The rows whose `column` == `value`, in order. */
  find(table: TableName, column: string, value: PyValue): Row[];
  /** pd.concat([df, new_row]): the row goes last. */
  append(table: TableName, row: Row): void;
  /** df = df[df[column] != value]. */
  remove(table: TableName, column: string, value: PyValue): void;
  /** df.loc[df[column] == key, field] = value. */
  update(table: TableName, column: string, key: PyValue, field: string, value: PyValue): void;
  /** df[column] = df[column].astype(float), on the table itself. */
  toFloat(table: TableName, column: string): void;
}

/** A table's columns and rows, as read from NeMo Gym's CSVs or given by a test. */
export interface ParsedTable {
  columns: string[];
  rows: Row[];
}

/** A DataFrame in memory: columns, rows and each row's index label (pandas compares labels in DataFrame.equals). */
export interface Frame {
  columns: string[];
  rows: Row[];
  labels: number[];
}

/** The tables as pandas holds them, for verify's replays and for tests with tables of their own. */
export class MemoryTables implements Tables {
  readonly frames: Record<TableName, Frame>;

  constructor(tables: Partial<Record<TableName, ParsedTable>>) {
    const frame = (name: TableName): Frame => {
      const table = tables[name];
      const rows = (table?.rows ?? []).map((row) => ({ ...row }));
      return { columns: [...(table?.columns ?? TABLES[name].columns)], rows, labels: rows.map((_, i) => i) };
    };
    this.frames = Object.fromEntries(TABLE_NAMES.map((name) => [name, frame(name)])) as Record<TableName, Frame>;
  }

  columns(table: TableName): string[] {
    return [...this.frames[table].columns];
  }

  rows(table: TableName): Row[] {
    const { columns, rows } = this.frames[table];
    return rows.map((row) => Object.fromEntries(columns.map((c) => [c, row[c] ?? null])));
  }

  find(table: TableName, column: string, value: PyValue): Row[] {
    return this.rows(table).filter((row) => equal(row[column] ?? null, value));
  }

  append(table: TableName, row: Row): void {
    const frame = this.frames[table];
    // pd.concat takes the union of the columns; cells a row lacks are NaN.
    for (const column of Object.keys(row)) if (!frame.columns.includes(column)) frame.columns.push(column);
    frame.rows.push({ ...row });
    if (appendKeepsLabels(table)) frame.labels.push(0);
    else frame.labels = frame.rows.map((_, i) => i);
  }

  remove(table: TableName, column: string, value: PyValue): void {
    const frame = this.frames[table];
    const keep = frame.rows.map((row) => !equal(row[column] ?? null, value));
    frame.rows = frame.rows.filter((_, i) => keep[i]);
    frame.labels = frame.labels.filter((_, i) => keep[i]);
  }

  update(table: TableName, column: string, key: PyValue, field: string, value: PyValue): void {
    const frame = this.frames[table];
    if (!frame.columns.includes(field)) frame.columns.push(field);
    for (const row of frame.rows) if (equal(row[column] ?? null, key)) row[field] = value;
  }

  toFloat(table: TableName, column: string): void {
    for (const row of this.frames[table].rows) {
      const cell = row[column] ?? null;
      if (cell !== null) row[column] = Number(cell);
    }
  }
}

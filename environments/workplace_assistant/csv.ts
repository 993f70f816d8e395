// Reading NeMo Gym's CSVs as its tools do (pd.read_csv(dtype=str), then reset_state); used to generate the bundled tables.
import { parse } from "csv-parse/browser/esm/sync";
import { booleanColumns, type ParsedTable, TABLES, type TableName } from "./tables.js";

/** pandas' default na_values: read_csv(dtype=str) turns these cells into NaN. */
const NA_VALUES = new Set([
  "",
  "#N/A",
  "#N/A N/A",
  "#NA",
  "-1.#IND",
  "-1.#QNAN",
  "-NaN",
  "-nan",
  "1.#IND",
  "1.#QNAN",
  "<NA>",
  "N/A",
  "NA",
  "NULL",
  "NaN",
  "None",
  "n/a",
  "nan",
  "null",
]);

/** pd.read_csv(text, dtype=str), or with `header=None, names=[...]` when `names` is given. */
export function readCsv(text: string, names?: string[]): ParsedTable {
  const records = parse(text, { skip_empty_lines: true }) as string[][];
  const columns = names ?? records.shift() ?? [];
  const rows = records.map((record) => Object.fromEntries(columns.map((column, i) => [column, NA_VALUES.has(record[i]!) ? null : record[i]!])));
  return { columns, rows };
}

/** A table's rows as NeMo Gym's tools hold them after reset_state: `df["user_engaged"] == "True"` for the booleans. */
export function loadTable(table: TableName, parsed: ParsedTable): ParsedTable {
  const booleans = booleanColumns(table);
  if (booleans.length === 0) return parsed;
  return { columns: parsed.columns, rows: parsed.rows.map((row) => ({ ...row, ...Object.fromEntries(booleans.map((c) => [c, row[c] === "True"])) })) };
}

/** The CSV texts NeMo Gym's tools read: the five tables (with headers) and the company directory (without). */
export type CsvTexts = Record<Exclude<TableName, "plots">, string>;

/** The files of data/ each table comes from. */
export const CSV_FILES: Readonly<CsvTexts> = {
  emails: "processed/emails.csv",
  calendar_events: "processed/calendar_events.csv",
  analytics_data: "processed/analytics_data.csv",
  project_tasks: "processed/project_tasks.csv",
  customer_relationship_manager_data: "processed/customer_relationship_manager_data.csv",
  company_directory: "raw/email_addresses.csv",
};

/** reset_state() of every tool: the tables as NeMo Gym loads them; the list of plots starts empty. */
export function tablesFromCsv(csv: CsvTexts): Record<TableName, ParsedTable> {
  const read = (name: Exclude<TableName, "plots" | "company_directory">) => loadTable(name, readCsv(csv[name]));
  return {
    emails: read("emails"),
    calendar_events: read("calendar_events"),
    analytics_data: read("analytics_data"),
    project_tasks: read("project_tasks"),
    customer_relationship_manager_data: read("customer_relationship_manager_data"),
    plots: { columns: [...TABLES.plots.columns], rows: [] },
    company_directory: readCsv(csv.company_directory, [...TABLES.company_directory.columns]),
  };
}

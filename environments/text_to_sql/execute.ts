// Running the reference and the predicted query on the row's schema and data, in the session Durable Object's SQLite.
import { compareResults, ordersRows, type ResultSet, type SqlValue } from "./compare.js";

/** Rows read from one query at most: a result this large is no answer to a question about sample data. */
const MAX_ROWS = 10_000;

/** What one query gave: its columns and row count, or why it failed. */
export type QueryOutcome = { columns: string[]; row_count: number } | { error: string };

/** The execution check of one rollout; `match` is null when it could not be decided (the reference itself fails). */
export interface ExecutionReport {
  match: boolean | null;
  reason: string;
  reference?: QueryOutcome;
  predicted?: QueryOutcome;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

const quoteIdentifier = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Drops every table, view and trigger a row or a query made, leaving the Durable Object's own tables (`_cf_*`, which
 * hold the session state) alone. Foreign keys go unenforced, as in a stock SQLite, which the sqlite rows are written for
 * (a Durable Object enforces them by default). Several passes: a virtual table's shadow tables go with it.
 */
export function clearDatabase(sql: SqlStorage): void {
  sql.exec("PRAGMA foreign_keys = OFF");
  for (let pass = 0; pass < 8; pass++) {
    const objects = sql
      .exec<{ type: string; name: string }>(
        "SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view', 'trigger') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\'",
      )
      .toArray();
    if (objects.length === 0) return;
    for (const { type, name } of objects) {
      try {
        sql.exec(`DROP ${type.toUpperCase()} IF EXISTS ${quoteIdentifier(name)}`);
      } catch {
        // Dropped with its table already, or held by a reference: the next pass gets it.
      }
    }
  }
  throw new Error("the session's database could not be cleared");
}

function run(sql: SqlStorage, query: string): ResultSet {
  const cursor = sql.exec(query);
  const rows: SqlValue[][] = [];
  for (const row of cursor.raw<SqlValue[]>()) {
    rows.push(row);
    if (rows.length > MAX_ROWS) throw new Error(`the query returns more than ${MAX_ROWS} rows`);
  }
  return { columns: cursor.columnNames, rows };
}

/** Loads the row's schema and data afresh and runs one query on them. */
function runFresh(sql: SqlStorage, context: string, query: string): ResultSet | { error: string; stage: "context" | "query" } {
  clearDatabase(sql);
  if (context.trim() !== "") {
    try {
      sql.exec(context);
    } catch (error) {
      return { error: message(error), stage: "context" };
    }
  }
  try {
    return run(sql, query);
  } catch (error) {
    return { error: message(error), stage: "query" };
  }
}

const summary = (result: ResultSet): QueryOutcome => ({ columns: result.columns, row_count: result.rows.length });

/**
 * Executes the reference and the predicted query, each on its own fresh copy of the row's schema and data (so a
 * prediction that drops or rewrites tables cannot touch the reference's), and compares their results.
 */
export function executeAndCompare(sql: SqlStorage, context: string, reference: string, predicted: string): ExecutionReport {
  try {
    const expected = runFresh(sql, context, reference);
    if ("error" in expected) {
      const what = expected.stage === "context" ? "the row's schema and data do not load" : "the reference query fails";
      return { match: null, reason: `${what} in SQLite: ${expected.error}`, reference: { error: expected.error } };
    }
    const actual = runFresh(sql, context, predicted);
    if ("error" in actual) {
      return { match: false, reason: `the predicted query fails in SQLite: ${actual.error}`, reference: summary(expected), predicted: { error: actual.error } };
    }
    const comparison = compareResults(expected, actual, ordersRows(reference));
    return { ...comparison, reference: summary(expected), predicted: summary(actual) };
  } finally {
    clearDatabase(sql);
  }
}

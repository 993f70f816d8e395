// Comparing two SQL result sets by value: column names and order ignored, row order only where the reference orders it.

export type SqlValue = ArrayBuffer | string | number | null;

export interface ResultSet {
  columns: string[];
  rows: SqlValue[][];
}

export interface Comparison {
  match: boolean;
  reason: string;
}

/** Column orders tried at most, so a wide result of look-alike columns cannot stall the verifier. */
const MAX_COLUMN_ORDERS = 5_000;

/** A value's identity for comparison: numbers to 12 significant digits (1 = 1.0, float noise ignored), text exact, NULL = NULL. */
export function valueKey(value: SqlValue): string {
  if (value === null) return "null";
  if (typeof value === "number") return `n:${Number(value.toPrecision(12))}`;
  if (typeof value === "string") return `s:${value}`;
  return `b:${[...new Uint8Array(value)].map((byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

const rowKey = (row: string[]) => JSON.stringify(row);

function columnSignature(rows: string[][], column: number): string {
  return JSON.stringify(rows.map((row) => row[column]!).sort());
}

function sameRows(reference: string[][], predicted: string[][], ordered: boolean): boolean {
  if (ordered) return reference.every((row, i) => rowKey(row) === rowKey(predicted[i]!));
  const counts = new Map<string, number>();
  for (const row of reference) counts.set(rowKey(row), (counts.get(rowKey(row)) ?? 0) + 1);
  for (const row of predicted) {
    const left = counts.get(rowKey(row));
    if (!left) return false;
    counts.set(rowKey(row), left - 1);
  }
  return true;
}

/**
 * Whether the predicted result holds the reference's values: same number of columns and rows, some order of the
 * predicted columns giving the reference's rows, in the same order when `ordered` (the reference has a top-level
 * ORDER BY), as a multiset otherwise.
 */
export function compareResults(reference: ResultSet, predicted: ResultSet, ordered: boolean): Comparison {
  const width = reference.columns.length;
  if (predicted.columns.length !== width) {
    return { match: false, reason: `the reference returns ${width} columns, the prediction ${predicted.columns.length}` };
  }
  if (predicted.rows.length !== reference.rows.length) {
    return { match: false, reason: `the reference returns ${reference.rows.length} rows, the prediction ${predicted.rows.length}` };
  }
  const ref = reference.rows.map((row) => row.map(valueKey));
  const pred = predicted.rows.map((row) => row.map(valueKey));

  // Candidate predicted columns for each reference column: those holding the same values.
  const candidates: number[][] = [];
  for (let column = 0; column < width; column++) {
    const signature = columnSignature(ref, column);
    const matching = [...Array(width).keys()].filter((other) => columnSignature(pred, other) === signature);
    if (matching.length === 0) {
      return { match: false, reason: `no predicted column holds the values of the reference column "${reference.columns[column]}"` };
    }
    candidates.push(matching);
  }

  let tried = 0;
  const used = new Set<number>();
  const order: number[] = [];
  const search = (column: number): boolean => {
    if (column === width) {
      tried++;
      return sameRows(
        ref,
        pred.map((row) => order.map((at) => row[at]!)),
        ordered,
      );
    }
    for (const candidate of candidates[column]!) {
      if (used.has(candidate) || tried >= MAX_COLUMN_ORDERS) continue;
      used.add(candidate);
      order.push(candidate);
      if (search(column + 1)) return true;
      order.pop();
      used.delete(candidate);
    }
    return false;
  };
  if (search(0)) return { match: true, reason: "same rows and values" };
  if (tried >= MAX_COLUMN_ORDERS) return { match: false, reason: `no match within ${MAX_COLUMN_ORDERS} column orders` };
  return { match: false, reason: ordered ? "the rows differ, or come in another order than the reference's ORDER BY" : "the rows differ" };
}

/** The query with string literals, quoted identifiers and comments blanked, so keywords inside them are not seen. */
function skeleton(sql: string): string {
  let out = "";
  for (let i = 0; i < sql.length; ) {
    const c = sql[i]!;
    if (c === "-" && sql[i + 1] === "-") {
      const end = sql.indexOf("\n", i);
      i = end < 0 ? sql.length : end;
      out += " ";
    } else if (c === "/" && sql[i + 1] === "*") {
      const end = sql.indexOf("*/", i + 2);
      i = end < 0 ? sql.length : end + 2;
      out += " ";
    } else if (c === "'" || c === '"' || c === "`" || c === "[") {
      const close = c === "[" ? "]" : c;
      let j = i + 1;
      while (j < sql.length && !(sql[j] === close && sql[j + 1] !== close)) j += sql[j] === close ? 2 : 1;
      i = j + 1;
      out += " x ";
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** Whether the outermost query orders its rows (an ORDER BY outside every parenthesis, so not a window's). */
export function ordersRows(sql: string): boolean {
  const text = skeleton(sql);
  let depth = 0;
  let outer = "";
  for (const c of text) {
    if (c === "(") depth++;
    else if (c === ")") depth = Math.max(0, depth - 1);
    else if (depth === 0) outer += c;
  }
  return /\border\s+by\b/i.test(outer);
}

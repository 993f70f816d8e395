// The pagination NeMo Gym's search tools share, evaluated with Python's arithmetic so odd page arguments fail as they do there.
import { compare, PyError, type PyValue, typeName } from "./python.js";

const isInt = (value: PyValue): value is number | boolean => typeof value === "boolean" || (typeof value === "number" && Number.isInteger(value));
const num = (value: PyValue): number => Number(value);

function add(a: PyValue, b: PyValue): number {
  if (typeof a === "string" || typeof b === "string" || a === null || b === null) {
    throw new PyError("TypeError", `unsupported operand type(s) for +: '${typeName(a)}' and '${typeName(b)}'`);
  }
  return num(a) + num(b);
}

function floorDiv(a: number, b: PyValue): number {
  if (typeof b === "string" || b === null) throw new PyError("TypeError", `unsupported operand type(s) for //: 'int' and '${typeName(b)}'`);
  if (num(b) === 0) throw new PyError("ZeroDivisionError", isInt(b) ? "integer division or modulo by zero" : "float floor division by zero");
  return Math.floor(a / num(b));
}

function times(a: number, b: PyValue): number {
  if (b === null) throw new PyError("TypeError", `unsupported operand type(s) for *: 'int' and 'NoneType'`);
  if (typeof b === "string") throw new PyError("TypeError", "can't multiply sequence by non-int of type 'str'");
  const product = a * num(b);
  // Python's ints have no -0.
  return Object.is(product, -0) ? 0 : product;
}

/** min(a, b): b unless b < a. */
const pyMin = (a: PyValue, b: PyValue): PyValue => (compare(b, "<", a) ? b : a);
/** max(a, b): b only if b > a. */
const pyMax = (a: PyValue, b: PyValue): PyValue => (compare(b, ">", a) ? b : a);

/** Python's items[start:end]: int indices only (negative ones count from the end), TypeError otherwise. */
export function pySlice<T>(items: T[], start: number, end: number): T[] {
  if (!Number.isInteger(start) || !Number.isInteger(end)) {
    throw new PyError("TypeError", "slice indices must be integers or None or have an __index__ method");
  }
  const at = (i: number) => (i < 0 ? Math.max(0, items.length + i) : Math.min(i, items.length));
  return items.slice(at(start), Math.max(at(start), at(end)));
}

export interface Page {
  start: number;
  end: number;
  page: PyValue;
  pageSize: PyValue;
  totalPages: number;
}

/**
 * total_pages = (total + page_size - 1) // page_size; page = max(1, min(page, total_pages)) if total_pages > 0 else 1;
 * start = (page - 1) * page_size; end = min(start + page_size, total). The tools slice with pySlice only when there
 * is something to show, as NeMo Gym's do.
 */
export function paginate(total: number, page: PyValue, pageSize: PyValue): Page {
  const totalPages = floorDiv(add(total, pageSize) - 1, pageSize);
  const current = totalPages > 0 ? pyMax(1, pyMin(page, totalPages)) : 1;
  const start = times(add(current, -1), pageSize);
  const end = Math.min(add(start, pageSize), total);
  return { start, end, page: current, pageSize, totalPages };
}

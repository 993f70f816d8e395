// The Python operations NeMo Gym's workplace tools apply to whatever JSON the model sends: truthiness, str(), .lower(), in, <, int().
import { pyEqual, pyFloatRepr, pyTruthy } from "../sdk/index.js";
import { pyCompareStr, pyIntOf, pyZfill, PyError as SdkPyError } from "../sdk/python/index.js";

/** A JSON scalar as the tools receive and store it (arrays and objects are refused before a tool runs). */
export type PyValue = string | number | boolean | null;

/** A Python exception: its type, and the text `str(exception)` gives, which NeMo Gym hands to the model. */
export class PyError extends Error {
  constructor(
    readonly type: "AttributeError" | "KeyError" | "TypeError" | "ValueError" | "ZeroDivisionError" | "OverflowError" | "re.error",
    message: string,
  ) {
    super(message);
    this.name = type;
  }
}

/** type(value).__name__; a JSON number with no fraction counts as an int (JSON cannot say 1.0 from 1). */
export function typeName(value: PyValue): string {
  if (value === null) return "NoneType";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  return "str";
}

export const truthy = (value: PyValue | undefined): boolean => pyTruthy(value);
export const equal = (a: PyValue, b: PyValue): boolean => pyEqual(a, b);

/** str(value), as an f-string prints it; a missing cell (pandas NaN) prints "nan". */
export function str(value: PyValue, missing = "None"): string {
  if (value === null) return missing;
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : pyFloatRepr(value);
  return value;
}

/** value.lower(); anything but a str raises AttributeError as Python does. */
export function lower(value: PyValue): string {
  if (typeof value !== "string") throw new PyError("AttributeError", `'${typeName(value)}' object has no attribute 'lower'`);
  return value.toLowerCase();
}

/** `needle in haystack` for a str haystack: substring search, TypeError for anything else. */
export function inString(needle: PyValue, haystack: PyValue): boolean {
  if (typeof haystack !== "string") throw new PyError("TypeError", `argument of type '${typeName(haystack)}' is not iterable`);
  if (typeof needle !== "string") throw new PyError("TypeError", `'in <string>' requires string as left operand, not ${typeName(needle)}`);
  return haystack.includes(needle);
}

/** `value in [...]`: membership by ==. */
export const inList = (value: PyValue, list: readonly PyValue[]): boolean => list.some((item) => equal(value, item));

const asNumber = (value: PyValue): number | undefined => (typeof value === "number" ? value : typeof value === "boolean" ? Number(value) : undefined);

/** `a op b` for <, <=, >, >=: str with str, numbers (bool is an int) with numbers, TypeError otherwise. */
export function compare(a: PyValue, op: "<" | "<=" | ">" | ">=", b: PyValue): boolean {
  let d: number;
  const [x, y] = [asNumber(a), asNumber(b)];
  if (typeof a === "string" && typeof b === "string") d = pyCompareStr(a, b);
  else if (x !== undefined && y !== undefined) d = x - y;
  else throw new PyError("TypeError", `'${op}' not supported between instances of '${typeName(a)}' and '${typeName(b)}'`);
  if (Number.isNaN(d)) return false;
  return op === "<" ? d < 0 : op === "<=" ? d <= 0 : op === ">" ? d > 0 : d >= 0;
}

/** int(value) for str (whitespace, sign, underscores, any Unicode digit), numbers (truncated) and bool. */
export function int(value: PyValue): number {
  if (typeof value === "boolean") return Number(value);
  if (typeof value === "number") {
    if (Number.isNaN(value)) throw new PyError("ValueError", "cannot convert float NaN to integer");
    if (!Number.isFinite(value)) throw new PyError("OverflowError", "cannot convert float infinity to integer");
    return Math.trunc(value);
  }
  if (value === null) throw new PyError("TypeError", "int() argument must be a string, a bytes-like object or a real number, not 'NoneType'");
  try {
    return Number(pyIntOf(value));
  } catch (error) {
    if (error instanceof SdkPyError) throw new PyError("ValueError", error.message);
    throw error;
  }
}

/** str(n).zfill(width): zeros after the sign. */
export const zfill = pyZfill;

/**
 * str(int(series.max()) + 1) over an id column: the largest id as text (ids are str), plus one; an empty column's max
 * is NaN, which int() refuses.
 */
export function nextId(ids: PyValue[]): string {
  let max: PyValue = Number.NaN;
  for (const id of ids) if (id !== null && (typeof max === "number" && Number.isNaN(max) ? true : compare(id, ">", max))) max = id;
  return String(int(max) + 1);
}

// Python semantics the IFEval checkers rely on: str methods, truthiness, comparisons, and Unicode-aware
// regex pieces (Python's \w, \s and \b are Unicode-aware; JavaScript's \b and \w are ASCII-only).
import { PY_WHITESPACE, PY_WORD, pyLstrip, pyRstrip, pySplit, pyStrip } from "../../../sdk/python/text.js";
import { wordBoundary } from "../../../sdk/python/regex-lexer.js";
import { pyCompareStr } from "../../../sdk/python/order.js";
import { pyEqual, pyTruthy } from "../../../sdk/python/values.js";

/** Python's `\w` (and str.isalnum() plus "_"): letters, numbers and the underscore. */
export const WORD = PY_WORD;
/** Python's `\s` and str.isspace(): Unicode whitespace (JavaScript's \s adds U+FEFF and misses U+001C–U+001F, U+0085). */
export const WS = PY_WHITESPACE;
/** Python's `\b` (Unicode): between a word character and a non-word character. */
export const BOUNDARY = wordBoundary(`[${WORD}]`, false);

/** An exception as Python would raise it; the verifier catches it and marks the instruction as not followed. */
export class PyError extends Error {
  constructor(
    readonly kind: "TypeError" | "ValueError" | "AttributeError" | "IndexError" | "KeyError" | "re.error",
    message: string,
  ) {
    super(`${kind}: ${message}`);
    this.name = "PyError";
  }
}

/** str.strip() / str.strip(chars), and the one-sided forms. */
export const strip = pyStrip;
export const lstrip = pyLstrip;
export const rstrip = pyRstrip;

/** str.split() with no separator: runs of whitespace, no empty strings. */
export const split = pySplit;

/** str.removeprefix / str.removesuffix. */
export function removePrefix(s: string, prefix: string): string {
  return prefix !== "" && s.startsWith(prefix) ? s.slice(prefix.length) : s;
}
export function removeSuffix(s: string, suffix: string): string {
  return suffix !== "" && s.endsWith(suffix) ? s.slice(0, s.length - suffix.length) : s;
}

/** Code points, as Python indexes and measures a str. */
export function codePoints(s: string): string[] {
  return [...s];
}

export function lower(s: string): string {
  return s.toLowerCase();
}

/** str.isupper(): at least one cased character and no lowercase or titlecase one. */
export function isUpper(s: string): boolean {
  return !/[\p{Lowercase}\p{Lt}]/u.test(s) && /\p{Uppercase}/u.test(s);
}

/** str.islower(): at least one cased character and no uppercase or titlecase one. */
export function isLower(s: string): boolean {
  return !/[\p{Uppercase}\p{Lt}]/u.test(s) && /\p{Lowercase}/u.test(s);
}

/** Python truthiness of a JSON value. */
export const truthy = pyTruthy;

/** A JSON value as a Python number (bool is an int), or undefined. */
function asNumber(value: unknown): number | undefined {
  if (typeof value === "number") return value;
  if (typeof value === "boolean") return value ? 1 : 0;
  return undefined;
}

function typeName(value: unknown): string {
  if (value === null || value === undefined) return "NoneType";
  if (typeof value === "string") return "str";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  return Array.isArray(value) ? "list" : "dict";
}

/** Python's `a < b` for numbers and strings; a TypeError for anything else. */
export function lt(a: unknown, b: unknown): boolean {
  const x = asNumber(a);
  const y = asNumber(b);
  if (x !== undefined && y !== undefined) return x < y;
  if (typeof a === "string" && typeof b === "string") return pyCompareStr(a, b) < 0;
  throw new PyError("TypeError", `'<' not supported between instances of '${typeName(a)}' and '${typeName(b)}'`);
}

/** Python's `a <= b`, `a >= b`, `a > b` through lt. */
export function le(a: unknown, b: unknown): boolean {
  return !lt(b, a);
}
export function ge(a: unknown, b: unknown): boolean {
  return !lt(a, b);
}
export function gt(a: unknown, b: unknown): boolean {
  return lt(b, a);
}

/** Python's `==` on JSON values (1 == 1.0 == True). */
export const eq = (a: unknown, b: unknown): boolean => pyEqual(a, b);

/** sorted(values) for a list of strings or numbers; mixed types raise as in Python. */
export function sorted(values: unknown[]): unknown[] {
  return [...values].sort((a, b) => (lt(a, b) ? -1 : lt(b, a) ? 1 : 0));
}

/** iter(value): a list's items, a str's characters, a dict's keys; other values are not iterable. */
export function iterate(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === "string") return [...value];
  if (value && typeof value === "object") return Object.keys(value);
  throw new PyError("TypeError", `'${typeName(value)}' object is not iterable`);
}

/** `value.strip()` where value must be a str (anything else has no .strip). */
export function stripStr(value: unknown): string {
  if (typeof value !== "string") throw new PyError("AttributeError", `'${typeName(value)}' object has no attribute 'strip'`);
  return strip(value);
}

/** A str where Python would concatenate or search with it (a TypeError otherwise). */
export function requireStr(value: unknown, what: string): string {
  if (typeof value !== "string") throw new PyError("TypeError", `${what} must be str, not ${typeName(value)}`);
  return value;
}

/** `value[0]` on a str or list. */
export function first(value: unknown): unknown {
  if (typeof value === "string" || Array.isArray(value)) {
    const items = typeof value === "string" ? [...value] : value;
    if (items.length === 0) throw new PyError("IndexError", "index out of range");
    return items[0];
  }
  throw new PyError("TypeError", `'${typeName(value)}' object is not subscriptable`);
}

/** `seq[index]` with Python's negative indices and integer-only indices. */
export function at<T>(seq: T[], index: unknown): T {
  const i = asNumber(index);
  if (i === undefined || !Number.isInteger(i)) throw new PyError("TypeError", "list indices must be integers or slices");
  const j = i < 0 ? seq.length + i : i;
  if (j < 0 || j >= seq.length) throw new PyError("IndexError", "list index out of range");
  return seq[j]!;
}

/** `a - b` for Python numbers. */
export function minus(a: unknown, b: number): number {
  const x = asNumber(a);
  if (x === undefined) throw new PyError("TypeError", `unsupported operand type(s) for -: '${typeName(a)}' and 'int'`);
  return x - b;
}

// Python values as NeMo Gym's parsers produce them: dicts keep non-string keys, dates and bytes are not JSON.
import { pyFloatRepr, pyReprStr } from "../../sdk/python/index.js";

/** A value with no JSON counterpart (date, datetime, time, bytes, set, tuple): it fails every JSON Schema `type`. */
export class PyOpaque {
  constructor(
    readonly pyType: string,
    readonly repr: string,
  ) {}
}

export type PyKey = string | number | boolean | null | PyOpaque;
/** A Python dict: insertion-ordered, keys of any hashable type (YAML `1: x` or `yes: x` keys are not strings). */
export type PyDict = Map<PyKey, PyValue>;
export type PyValue = null | boolean | number | string | PyValue[] | PyDict | PyOpaque;

/** A Python exception, named as NeMo Gym reports it (`f"{type(e).__name__}: {e}"`). */
export class PyError extends Error {
  constructor(
    readonly pyType: string,
    readonly detail: string,
  ) {
    super(`${pyType}: ${detail}`);
  }
}

export function isDict(value: unknown): value is PyDict {
  return value instanceof Map;
}

export function pyTypeName(value: PyValue): string {
  if (value === null) return "NoneType";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  if (typeof value === "string") return "str";
  if (Array.isArray(value)) return "list";
  if (isDict(value)) return "dict";
  return value.pyType;
}

/** Python's repr, for error messages. Integral numbers print as ints (JSON does not keep 1.0 apart from 1). */
export function pyRepr(value: PyValue, seen: Set<object> = new Set()): string {
  if (value === null) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "number") return Number.isInteger(value) && Math.abs(value) < 1e16 ? String(value) : pyFloatRepr(value);
  if (typeof value === "string") return pyReprStr(value);
  if (value instanceof PyOpaque) return value.repr;
  // A YAML alias can make a list or dict contain itself; Python prints the inner one as [...] / {...}.
  if (seen.has(value)) return Array.isArray(value) ? "[...]" : "{...}";
  seen.add(value);
  const text = Array.isArray(value)
    ? `[${value.map((v) => pyRepr(v, seen)).join(", ")}]`
    : `{${[...value].map(([k, v]) => `${pyRepr(k, seen)}: ${pyRepr(v, seen)}`).join(", ")}}`;
  seen.delete(value);
  return text;
}

/** str(e)[:200] — Python slices code points, not UTF-16 units. */
export function truncate(text: string, limit = 200): string {
  const chars = [...text];
  return chars.length <= limit ? text : chars.slice(0, limit).join("");
}

/** `f"{type(e).__name__}: {str(e)[:200]}"` for any thrown value. */
export function describeError(error: unknown): string {
  if (error instanceof PyError) return `${error.pyType}: ${truncate(error.detail)}`;
  if (error instanceof Error) return `${error.name}: ${truncate(error.message)}`;
  return `Exception: ${truncate(String(error))}`;
}

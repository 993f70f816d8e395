// Python values as NeMo Gym's parsers produce them: dicts keep non-string keys, dates and bytes are not JSON.

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

/**
 * jsonschema's `equal` (enum, const, uniqueItems): Python == except that booleans only equal booleans.
 * Numbers compare by value, so 1 == 1.0.
 */
export function schemaEqual(a: PyValue, b: PyValue): boolean {
  if (a === b) return true;
  if (typeof a === "string" || typeof b === "string") return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => schemaEqual(x, b[i]!));
  if (isDict(a) && isDict(b)) {
    if (a.size !== b.size) return false;
    for (const [key, value] of a) if (!b.has(key) || !schemaEqual(value, b.get(key)!)) return false;
    return true;
  }
  if (a instanceof PyOpaque && b instanceof PyOpaque) return a.pyType === b.pyType && a.repr === b.repr;
  return false;
}

/** Python's repr of a float: shortest round-trip digits, exponent form outside 1e-4 ≤ |x| < 1e16. */
function floatRepr(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const [mantissa, exponentText] = x.toExponential().split("e") as [string, string];
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 16) {
    return `${mantissa}e${exponent < 0 ? "-" : "+"}${String(Math.abs(exponent)).padStart(2, "0")}`;
  }
  const fixed = x.toFixed(Math.max(0, mantissa.replace(/^-/, "").replace(".", "").length - 1 - exponent));
  return fixed.includes(".") ? fixed : `${fixed}.0`;
}

/** Python's repr of a str: single quotes unless the text has ' and no ", non-printables escaped. */
function strRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    if (ch === quote || ch === "\\") out += `\\${ch}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (ch !== " " && /[\p{C}\p{Z}]/u.test(ch)) {
      const cp = ch.codePointAt(0)!;
      out += cp < 0x100 ? `\\x${cp.toString(16).padStart(2, "0")}` : cp < 0x10000 ? `\\u${cp.toString(16).padStart(4, "0")}` : `\\U${cp.toString(16).padStart(8, "0")}`;
    } else out += ch;
  }
  return out + quote;
}

/** Python's repr, for error messages. Integral numbers print as ints (JSON does not keep 1.0 apart from 1). */
export function pyRepr(value: PyValue, seen: Set<object> = new Set()): string {
  if (value === null) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "number") return Number.isInteger(value) && Math.abs(value) < 1e16 ? String(value) : floatRepr(value);
  if (typeof value === "string") return strRepr(value);
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

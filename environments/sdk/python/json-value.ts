// json.loads into the Python value model (int → bigint, float → number) and json.dumps of it, as CPython prints.
import { type JsonBuild, pyJsonLoads } from "./json.js";
import { pyFloatRepr } from "./numbers.js";
import type { PyValue } from "./order.js";

const INTEGER = /^-?[0-9]+$/;

/** dicts as records (a repeated key keeps its first position, takes the last value); ints exact as bigint. */
export const PY_VALUE_BUILD: JsonBuild<PyValue> = {
  dict(pairs) {
    const record: { [key: string]: PyValue } = {};
    // defineProperty: a "__proto__" key is data, not the prototype.
    for (const [key, value] of pairs) Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
    return record;
  },
  number: (raw, value) => (INTEGER.test(raw) ? BigInt(raw) : value),
};

/** json.loads(text) as a PyValue. Throws PythonJsonDecodeError / PythonJsonLimitError as json.loads raises. */
export function pyJsonValue(text: string): PyValue {
  return pyJsonLoads(text, PY_VALUE_BUILD);
}

export interface PyJsonDumpsOptions {
  /** ensure_ascii (default true): every non-ASCII character as \uXXXX (astral ones as a surrogate pair). */
  ensureAscii?: boolean;
  /** sort_keys (default false): keys in code-point order. */
  sortKeys?: boolean;
  /** indent (default None): items on their own lines; the item separator becomes "," without a trailing space. */
  indent?: number;
}

const CONTROL: Record<string, string> = { '"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f" };

function dumpString(text: string, ensureAscii: boolean): string {
  const pattern = ensureAscii ? /["\\\x00-\x1f\x7f-\uffff]/g : /["\\\x00-\x1f]/g;
  return `"${text.replace(pattern, (ch) => CONTROL[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`)}"`;
}

function dumpNumber(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (!Number.isFinite(value)) return value > 0 ? "Infinity" : "-Infinity";
  return pyFloatRepr(value);
}

/** json.dumps(value, ensure_ascii=..., sort_keys=..., indent=...) of a PyValue: ints as bigint, floats by repr. */
export function pyJsonDumps(value: PyValue, options: PyJsonDumpsOptions = {}): string {
  const ensureAscii = options.ensureAscii ?? true;
  const indent = options.indent;
  const dump = (v: PyValue, depth: number): string => {
    if (v === null) return "null";
    if (typeof v === "boolean") return v ? "true" : "false";
    if (typeof v === "bigint") return v.toString();
    if (typeof v === "number") return dumpNumber(v);
    if (typeof v === "string") return dumpString(v, ensureAscii);
    const items = Array.isArray(v)
      ? v.map((item) => dump(item, depth + 1))
      : sortedEntries(v, options.sortKeys ?? false).map(([k, item]) => `${dumpString(k, ensureAscii)}: ${dump(item, depth + 1)}`);
    const [open, close] = Array.isArray(v) ? ["[", "]"] : ["{", "}"];
    if (items.length === 0) return open + close;
    if (indent === undefined) return open + items.join(", ") + close;
    const inner = `\n${" ".repeat(indent * (depth + 1))}`;
    return `${open}${inner}${items.join(`,${inner}`)}\n${" ".repeat(indent * depth)}${close}`;
  };
  return dump(value, 0);
}

function sortedEntries(record: { [key: string]: PyValue }, sort: boolean): [string, PyValue][] {
  const entries = Object.entries(record);
  if (!sort) return entries;
  const points = (s: string) => [...s].map((ch) => ch.codePointAt(0)!);
  return entries.sort(([a], [b]) => {
    const x = points(a);
    const y = points(b);
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
    return x.length - y.length;
  });
}

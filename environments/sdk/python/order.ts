// Python's < and sorted() on JSON-like values: numbers across int/float/bool exactly, str by code point, lists item by item.
import { PyError } from "./errors.js";
import { pyItemEqual } from "./values.js";

/** A Python value as this layer models parsed JSON: int is bigint, float is number, dict a plain record. */
export type PyValue = null | boolean | bigint | number | string | PyValue[] | { [key: string]: PyValue };

/** type(x).__name__ of a modelled value. */
export function pyTypeName(value: unknown): string {
  if (value === null || value === undefined) return "NoneType";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "bigint") return "int";
  if (typeof value === "number") return "float";
  if (typeof value === "string") return "str";
  return Array.isArray(value) ? "list" : "dict";
}

const isNumeric = (v: unknown): v is boolean | bigint | number => typeof v === "boolean" || typeof v === "bigint" || typeof v === "number";
const asExact = (v: boolean | bigint): bigint => (typeof v === "bigint" ? v : v ? 1n : 0n);

/** a < b on numbers of any of the three kinds, without rounding the integer (NaN is never less nor greater). */
function numberLess(a: boolean | bigint | number, b: boolean | bigint | number): boolean {
  if (typeof a !== "number" && typeof b !== "number") return asExact(a) < asExact(b);
  if (typeof a === "number" && typeof b === "number") return a < b;
  if (typeof a === "number") return !Number.isFinite(a) ? a === Number.NEGATIVE_INFINITY : BigInt(Math.floor(a)) < asExact(b as bigint);
  const n = b as number;
  // An integer i is below a finite float f when i < ceil(f) (i ≤ floor(f) for f not whole: the same thing).
  return !Number.isFinite(n) ? n === Number.POSITIVE_INFINITY : asExact(a) < BigInt(Math.ceil(n));
}

/** Python's `a < b`; TypeError where Python has no ordering ('<' not supported between instances of ...). */
export function pyLess(a: unknown, b: unknown): boolean {
  if (isNumeric(a) && isNumeric(b)) return numberLess(a, b);
  if (typeof a === "string" && typeof b === "string") return codePointLess(a, b);
  if (Array.isArray(a) && Array.isArray(b)) {
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) if (!pyItemEqual(a[i], b[i])) return pyLess(a[i], b[i]);
    return a.length < b.length;
  }
  throw new PyError("TypeError", `'<' not supported between instances of '${pyTypeName(a)}' and '${pyTypeName(b)}'`);
}

/**
 * Python's ordering of two str, as a sign: by code point. JS's < compares UTF-16 units, which orders astral characters
 * before U+E000–U+FFFF.
 */
export function pyCompareStr(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    if (x[i] !== y[i]) return x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
  }
  return x.length - y.length;
}

const codePointLess = (a: string, b: string): boolean => pyCompareStr(a, b) < 0;

/** sorted(values, key=key, reverse=reverse): a stable merge sort that, like Python's, only asks `<`. */
export function pySorted<T>(values: readonly T[], key: (value: T) => unknown = (v) => v, reverse = false): T[] {
  const keyed = values.map((value, index) => ({ value, key: key(value), index }));
  // reverse keeps equal items in their original order, as Python's does.
  const before = (x: (typeof keyed)[number], y: (typeof keyed)[number]) => (reverse ? pyLess(y.key, x.key) : pyLess(x.key, y.key));
  const sort = (items: typeof keyed): typeof keyed => {
    if (items.length <= 1) return items;
    const mid = items.length >> 1;
    const left = sort(items.slice(0, mid));
    const right = sort(items.slice(mid));
    const out: typeof keyed = [];
    let i = 0;
    let j = 0;
    while (i < left.length && j < right.length) out.push(before(right[j]!, left[i]!) ? right[j++]! : left[i++]!);
    return out.concat(left.slice(i), right.slice(j));
  };
  return sort(keyed).map((item) => item.value);
}

// Python behaviours hotpotqa_qa needs that the SDK's Python layer lacks: str() of a JSON value, isupper, isdigit, re.sub.
import { pyFloatRepr } from "../sdk/python/numbers.js";
import { compilePythonRegex } from "../sdk/python/regex.js";

/** A value json.loads returns, with ints kept apart from floats (Python's str differs: 5 vs 5.0). */
export type PyJson = null | boolean | string | PyInt | number | PyJson[] | PyDict;
export class PyInt {
  constructor(readonly digits: string) {}
}
export class PyDict {
  constructor(readonly pairs: [string, PyJson][]) {}
  get(key: string): PyJson | undefined {
    return this.pairs.find(([k]) => k === key)?.[1];
  }
  has(key: string): boolean {
    return this.pairs.some(([k]) => k === key);
  }
}

/** pyJsonLoads' builder for PyJson: a repeated key keeps its first position and the last value, as dict() does. */
export const pyJsonBuild = {
  dict(pairs: [string, PyJson][]): PyJson {
    const merged = new Map<string, PyJson>();
    for (const [key, value] of pairs) merged.set(key, value);
    return new PyDict([...merged]);
  },
  number(raw: string, value: number): PyJson {
    return /^-?[0-9]+$/.test(raw) ? new PyInt(raw === "-0" ? "0" : raw) : value;
  },
};

/** Python's str.isprintable() per character (categories C* and Z* other than the space are not printable). */
const UNPRINTABLE = /[\p{C}\p{Z}]/u;

/** Python's repr() of a str: single quotes unless it holds ' and no ", escapes for the unprintable. */
function reprString(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === quote || ch === "\\") out += `\\${ch}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (ch !== " " && UNPRINTABLE.test(ch)) {
      if (code < 0x100) out += `\\x${code.toString(16).padStart(2, "0")}`;
      else if (code < 0x10000) out += `\\u${code.toString(16).padStart(4, "0")}`;
      else out += `\\U${code.toString(16).padStart(8, "0")}`;
    } else out += ch;
  }
  return out + quote;
}

function repr(value: PyJson): string {
  return typeof value === "string" ? reprString(value) : pyStr(value);
}

/** Python's str() of a json.loads value. */
export function pyStr(value: PyJson): string {
  if (value === null) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "string") return value;
  if (typeof value === "number") return pyFloatRepr(value);
  if (value instanceof PyInt) return value.digits;
  if (Array.isArray(value)) return `[${value.map(repr).join(", ")}]`;
  return `{${value.pairs.map(([k, v]) => `${reprString(k)}: ${repr(v)}`).join(", ")}}`;
}

/** Python's str.isupper(): at least one cased character and no lower- or title-case one. */
export function pyIsUpper(text: string): boolean {
  return /\p{Uppercase}/u.test(text) && !/[\p{Lowercase}\p{Lt}]/u.test(text);
}

/** Python's str.isdigit(), for decimal digits (Nd); the rarer Numeric_Type=Digit characters (², ①) are not covered. */
export function pyIsDigit(text: string): boolean {
  return /^\p{Nd}+$/u.test(text);
}

/** Python's text[start:end] in code points. */
export function pySlice(text: string, start: number, end?: number): string {
  return Array.from(text).slice(start, end).join("");
}

/** Python's bool(re.search(pattern, text)). */
export function pySearch(pattern: string, text: string): boolean {
  return compilePythonRegex(pattern).regex.test(text);
}

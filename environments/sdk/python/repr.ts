// Python's repr() and str() of JSON-like values: None/True/False, int, float repr, str quoting and escapes, list and dict.
import { pyFloatRepr } from "./numbers.js";

/** Characters str.isprintable() rejects (repr escapes them): categories C*, Zl, Zp, and Zs other than the space. */
const UNPRINTABLE = /[\p{C}\p{Zl}\p{Zp}\p{Zs}]/u;

function escapeChar(ch: string): string {
  const cp = ch.codePointAt(0)!;
  if (ch === "\\") return "\\\\";
  if (ch === "\t") return "\\t";
  if (ch === "\n") return "\\n";
  if (ch === "\r") return "\\r";
  if (cp < 0x7f && cp >= 0x20) return ch;
  if (cp >= 0x7f && ch !== " " && !UNPRINTABLE.test(ch)) return ch;
  if (cp < 0x100) return `\\x${cp.toString(16).padStart(2, "0")}`;
  if (cp < 0x10000) return `\\u${cp.toString(16).padStart(4, "0")}`;
  return `\\U${cp.toString(16).padStart(8, "0")}`;
}

/** repr(str): single quotes unless the text has ' and no ", then double quotes; the quote in use is escaped. */
export function pyReprStr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) out += ch === quote ? `\\${ch}` : escapeChar(ch);
  return out + quote;
}

/** repr(x) of a modelled value (int as bigint, float as number, dict as a record in insertion order). */
export function pyRepr(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number") return pyFloatRepr(value);
  if (typeof value === "string") return pyReprStr(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(", ")}]`;
  if (typeof value === "object") {
    return `{${Object.entries(value)
      .map(([k, v]) => `${pyReprStr(k)}: ${pyRepr(v)}`)
      .join(", ")}}`;
  }
  return String(value);
}

/** str(x): a str is itself; everything else prints as its repr. */
export function pyStr(value: unknown): string {
  return typeof value === "string" ? value : pyRepr(value);
}

/** str.isprintable(): no character repr would escape (the empty string is printable). */
export function pyIsPrintable(text: string): boolean {
  for (const ch of text) if (ch !== " " && UNPRINTABLE.test(ch)) return false;
  return true;
}

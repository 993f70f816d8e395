// Python's int() and float() on strings, used where NeMo Gym converts text (YAML scalars, XML and CSV coercion).
import { PyError } from "./value.js";

// str.isspace() characters: what int()/float() and str.strip() remove (not JS's trim() set).
const WHITESPACE = new Set([..."\t\n\v\f\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000"]);
for (let cp = 0x2000; cp <= 0x200a; cp++) WHITESPACE.add(String.fromCodePoint(cp));

/** str.strip() */
export function pyStrip(text: string): string {
  const chars = [...text];
  let start = 0;
  let end = chars.length;
  while (start < end && WHITESPACE.has(chars[start]!)) start++;
  while (end > start && WHITESPACE.has(chars[end - 1]!)) end--;
  return chars.slice(start, end).join("");
}

const DECIMAL = /\p{Nd}/u;

/** int()/float() accept any Unicode decimal digit; digits come in runs of ten from zero, so the run gives the value. */
function asciiDigits(text: string): string {
  let out = "";
  for (const ch of text) {
    if ((ch >= "0" && ch <= "9") || !DECIMAL.test(ch)) {
      out += ch;
      continue;
    }
    const cp = ch.codePointAt(0)!;
    let start = cp;
    while (DECIMAL.test(String.fromCodePoint(start - 1))) start--;
    out += String((cp - start) % 10);
  }
  return out;
}

const DIGITS: Record<number, RegExp> = { 2: /^[01](?:_?[01])*$/, 8: /^[0-7](?:_?[0-7])*$/, 10: /^[0-9](?:_?[0-9])*$/, 16: /^[0-9a-fA-F](?:_?[0-9a-fA-F])*$/ };

/** int(text, base) for base 2, 8, 10 or 16. Throws ValueError as Python does. */
export function pyInt(text: string, base: 2 | 8 | 10 | 16 = 10): number {
  const stripped = asciiDigits(pyStrip(text));
  const sign = stripped.startsWith("-") ? -1 : 1;
  const unsigned = /^[+-]/.test(stripped) ? stripped.slice(1) : stripped;
  if (!DIGITS[base]!.test(unsigned)) throw new PyError("ValueError", `invalid literal for int() with base ${base}: '${text}'`);
  const digits = unsigned.replaceAll("_", "");
  const prefix = base === 2 ? "0b" : base === 8 ? "0o" : base === 16 ? "0x" : "";
  return sign * Number(BigInt(prefix + digits));
}

const FLOAT = /^[+-]?(?:(?:\d(?:_?\d)*(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?|inf|infinity|nan)$/i;

/** float(text): decimal and exponent forms with underscores between digits, inf/infinity/nan in any case. */
export function pyFloat(text: string): number {
  const stripped = asciiDigits(pyStrip(text));
  if (!FLOAT.test(stripped)) throw new PyError("ValueError", `could not convert string to float: '${text}'`);
  const body = stripped.replace(/^[+-]/, "").toLowerCase();
  const sign = stripped.startsWith("-") ? -1 : 1;
  if (body === "nan") return NaN;
  if (body === "inf" || body === "infinity") return sign * Infinity;
  return sign * Number(body.replaceAll("_", ""));
}

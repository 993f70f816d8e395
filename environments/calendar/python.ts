// The few Python semantics NeMo Gym's calendar grader relies on: str.strip, int(str), ==, + and dict lookups.

/** A Python exception: the grader catches every one of them and scores 0, so only the kind matters. */
export class PyError extends Error {
  constructor(
    readonly pyType: string,
    message: string,
  ) {
    super(`${pyType}: ${message}`);
  }
}

// str.strip() without arguments removes what str.isspace() calls whitespace, which is not JS's trim() set.
const PY_WHITESPACE = new Set([..."\t\n\v\f\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000"]);
for (let cp = 0x2000; cp <= 0x200a; cp++) PY_WHITESPACE.add(String.fromCodePoint(cp));

export function pyStrip(text: string): string {
  const chars = [...text];
  let start = 0;
  let end = chars.length;
  while (start < end && PY_WHITESPACE.has(chars[start]!)) start++;
  while (end > start && PY_WHITESPACE.has(chars[end - 1]!)) end--;
  return chars.slice(start, end).join("");
}

const DECIMAL = /\p{Nd}/u;

/** int() reads any Unicode decimal digit; digits come in runs of ten starting at zero, so the run gives the value. */
function asciiDigit(ch: string): string | undefined {
  if (ch >= "0" && ch <= "9") return ch;
  if (!DECIMAL.test(ch)) return undefined;
  const cp = ch.codePointAt(0)!;
  let start = cp;
  while (DECIMAL.test(String.fromCodePoint(start - 1))) start--;
  return String((cp - start) % 10);
}

/** Python's int(text) in base 10: surrounding whitespace, a sign, and underscores between digits are allowed. */
export function pyInt(text: string): number {
  const stripped = pyStrip(text);
  const ascii = [...stripped].map((ch) => asciiDigit(ch) ?? ch).join("");
  if (!/^[+-]?\d(?:_?\d)*$/.test(ascii)) throw new PyError("ValueError", `invalid literal for int() with base 10: '${text}'`);
  return Number(ascii.replaceAll("_", ""));
}

/** A JSON number written as a float (`60.0`, `1e2`, NaN): Python keeps it a float, and str() shows it so ("0.0"). */
export class PyFloat {
  constructor(readonly value: number) {}
}

export type Json = null | boolean | number | string | PyFloat | Json[] | { [key: string]: Json };

// Strings (skipped), and the number literals json.loads reads: ints stay numbers, the rest become PyFloat.
const TOKEN = /"(?:[^"\\]|\\.)*"|-?Infinity|NaN|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?/g;
const FLOAT_MARK = "\u0000float";

function revive(value: unknown): Json {
  if (Array.isArray(value)) return value.map(revive);
  if (value && typeof value === "object") {
    const entries = Object.entries(value);
    const [first] = entries;
    if (entries.length === 1 && first![0] === FLOAT_MARK) return new PyFloat(Number(first![1]));
    return Object.fromEntries(entries.map(([k, v]) => [k, revive(v)]));
  }
  return value as Json;
}

/** json.loads: like JSON.parse, but NaN/Infinity are accepted and float literals stay floats. */
export function jsonLoads(text: string): Json {
  const marked = text.replace(TOKEN, (token) =>
    token.startsWith('"') || /^-?(?:0|[1-9][0-9]*)$/.test(token) ? token : JSON.stringify({ [FLOAT_MARK]: token }),
  );
  return revive(JSON.parse(marked));
}

export function isDict(value: unknown): value is { [key: string]: Json } {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof PyFloat);
}

/** Python's ==: True == 1 and 1 == 1.0, lists and dicts compare element by element. */
export function pyEqual(a: Json, b: Json): boolean {
  // Containers compare items by identity first (`is`), so a NaN equals itself inside the same dict.
  if (a === b) return true;
  const na = typeof a === "boolean" ? Number(a) : a instanceof PyFloat ? a.value : a;
  const nb = typeof b === "boolean" ? Number(b) : b instanceof PyFloat ? b.value : b;
  if (typeof na === "number" && typeof nb === "number") return na === nb;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => pyEqual(x, b[i]!));
  if (isDict(a) && isDict(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && pyEqual(a[k]!, b[k]!));
  }
  return a === b;
}

/** A number for Python arithmetic: bool is an int subclass, anything else is a TypeError. */
export function pyNumber(value: Json): number {
  if (typeof value === "number") return value;
  if (value instanceof PyFloat) return value.value;
  if (typeof value === "boolean") return Number(value);
  throw new PyError("TypeError", `unsupported operand type: ${value === null ? "NoneType" : typeof value}`);
}

/** Python's str() of a float: shortest round-trip digits, always with a "." or an exponent. */
function floatStr(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  const [mantissa, exponentText] = x.toExponential().split("e") as [string, string];
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 16) return `${mantissa}e${exponent < 0 ? "-" : "+"}${String(Math.abs(exponent)).padStart(2, "0")}`;
  const text = String(x);
  return text.includes(".") ? text : `${text}.0`;
}

/** str() of a JSON value, as far as it can equal a dict key of the expected state (digits). */
export function pyStr(value: Json): string {
  if (typeof value === "string") return value;
  if (value instanceof PyFloat) return floatStr(value.value);
  if (typeof value === "boolean") return value ? "True" : "False";
  if (value === null) return "None";
  if (typeof value === "number") return Number.isInteger(value) && Math.abs(value) < 1e21 ? BigInt(value).toString() : String(value);
  return JSON.stringify(value);
}

/** value[key] on a dict: KeyError when missing, TypeError when value is not a dict. */
export function item(value: Json | undefined, key: string): Json {
  if (!isDict(value)) throw new PyError("TypeError", "object is not subscriptable by a string");
  if (!Object.hasOwn(value, key)) throw new PyError("KeyError", `'${key}'`);
  return value[key]!;
}

/** value.strip() on what must be a str (AttributeError otherwise). */
export function strip(value: Json): string {
  if (typeof value !== "string") throw new PyError("AttributeError", "object has no attribute 'strip'");
  return pyStrip(value);
}

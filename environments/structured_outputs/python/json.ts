// Python's json.loads (CPython 3.13's C scanner): NaN/Infinity accepted, Python's JSONDecodeError messages and positions.
import { PyError, type PyDict, type PyValue } from "./value.js";

const WHITESPACE = new Set([" ", "\t", "\n", "\r"]);
const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/y;
const MAX_DEPTH = 1000;

/** Raised where Python's scanner raises StopIteration: no JSON value starts here. */
class NoValue {
  constructor(readonly index: number) {}
}

/** `f"{msg}: line {lineno} column {colno} (char {pos})"`, counted in code points as Python counts. */
function decodeError(text: string, message: string, index: number): PyError {
  const before = [...text.slice(0, index)];
  const pos = before.length;
  const lastNewline = before.lastIndexOf("\n");
  const line = before.filter((ch) => ch === "\n").length + 1;
  const column = pos - lastNewline;
  return new PyError("JSONDecodeError", `${message}: line ${line} column ${column} (char ${pos})`);
}

class Scanner {
  private depth = 0;
  constructor(private readonly s: string) {}

  skip(i: number): number {
    while (i < this.s.length && WHITESPACE.has(this.s[i]!)) i++;
    return i;
  }

  fail(message: string, index: number): never {
    throw decodeError(this.s, message, index);
  }

  value(i: number): [PyValue, number] {
    const s = this.s;
    if (i >= s.length) throw new NoValue(i);
    const c = s[i]!;
    if (c === '"') return this.string(i + 1);
    if (c === "{" || c === "[") {
      if (++this.depth > MAX_DEPTH) throw new PyError("RecursionError", "maximum recursion depth exceeded while decoding a JSON document");
      const result = c === "{" ? this.object(i + 1) : this.array(i + 1);
      this.depth--;
      return result;
    }
    for (const [word, value] of [["null", null], ["true", true], ["false", false], ["NaN", NaN], ["Infinity", Infinity], ["-Infinity", -Infinity]] as const) {
      if (s.startsWith(word, i)) return [value, i + word.length];
    }
    NUMBER.lastIndex = i;
    const match = NUMBER.exec(s);
    if (!match) throw new NoValue(i);
    return [Number(match[0]), i + match[0].length];
  }

  string(begin: number): [string, number] {
    const s = this.s;
    let out = "";
    let i = begin;
    for (;;) {
      let j = i;
      while (j < s.length && s[j] !== '"' && s[j] !== "\\" && s.charCodeAt(j) > 0x1f) j++;
      if (j >= s.length) this.fail("Unterminated string starting at", begin - 1);
      if (s.charCodeAt(j) <= 0x1f) this.fail("Invalid control character at", j);
      out += s.slice(i, j);
      if (s[j] === '"') return [out, j + 1];
      // A backslash: the escaped character follows.
      if (j + 1 >= s.length) this.fail("Unterminated string starting at", begin - 1);
      const e = s[j + 1]!;
      if (e !== "u") {
        const decoded = ESCAPES[e];
        if (decoded === undefined) this.fail("Invalid \\escape", j);
        out += decoded;
        i = j + 2;
        continue;
      }
      // \uXXXX, where Python also wants a character after the four digits, and joins a surrogate pair.
      const unit = this.hex4(j + 2);
      i = j + 6;
      out += String.fromCharCode(unit);
      if (unit >= 0xd800 && unit <= 0xdbff && i + 6 < s.length && s[i] === "\\" && s[i + 1] === "u") {
        const low = this.hex4(i + 2);
        if (low >= 0xdc00 && low <= 0xdfff) {
          out += String.fromCharCode(low);
          i += 6;
        }
      }
    }
  }

  hex4(start: number): number {
    const digits = this.s.slice(start, start + 4);
    if (start + 4 >= this.s.length || !/^[0-9a-fA-F]{4}$/.test(digits)) this.fail("Invalid \\uXXXX escape", start - 1);
    return parseInt(digits, 16);
  }

  object(start: number): [PyDict, number] {
    const s = this.s;
    const dict: PyDict = new Map();
    let i = this.skip(start);
    if (s[i] === "}") return [dict, i + 1];
    for (;;) {
      if (s[i] !== '"') this.fail("Expecting property name enclosed in double quotes", i);
      const [key, afterKey] = this.string(i + 1);
      i = this.skip(afterKey);
      if (s[i] !== ":") this.fail("Expecting ':' delimiter", i);
      const [value, afterValue] = this.value(this.skip(i + 1));
      // A repeated key keeps its first position and takes the last value, as dict(pairs) does.
      dict.set(key, value);
      i = this.skip(afterValue);
      if (s[i] === "}") return [dict, i + 1];
      if (s[i] !== ",") this.fail("Expecting ',' delimiter", i);
      const comma = i;
      i = this.skip(i + 1);
      if (s[i] === "}") this.fail("Illegal trailing comma before end of object", comma);
    }
  }

  array(start: number): [PyValue[], number] {
    const s = this.s;
    const list: PyValue[] = [];
    let i = this.skip(start);
    if (s[i] === "]") return [list, i + 1];
    for (;;) {
      const [value, afterValue] = this.value(i);
      list.push(value);
      i = this.skip(afterValue);
      if (s[i] === "]") return [list, i + 1];
      if (s[i] !== ",") this.fail("Expecting ',' delimiter", i);
      const comma = i;
      i = this.skip(i + 1);
      if (s[i] === "]") this.fail("Illegal trailing comma before end of array", comma);
    }
  }
}

/** json.loads(text) as Python values (objects become dicts). Throws PyError("JSONDecodeError", …) like Python. */
export function jsonLoads(text: string): PyValue {
  if (text.startsWith("\ufeff")) throw decodeError(text, "Unexpected UTF-8 BOM (decode using utf-8-sig)", 0);
  const scanner = new Scanner(text);
  try {
    const [value, end] = scanner.value(scanner.skip(0));
    const rest = scanner.skip(end);
    if (rest !== text.length) scanner.fail("Extra data", rest);
    return value;
  } catch (error) {
    if (error instanceof NoValue) throw decodeError(text, "Expecting value", error.index);
    throw error;
  }
}

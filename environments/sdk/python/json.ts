// Python's json.loads (CPython 3.13's C scanner): NaN/Infinity accepted, JSONDecodeError messages and positions, limits.

/** json.JSONDecodeError: `msg`, the code-point position, and Python's `"{msg}: line L column C (char P)"` as message. */
export class PythonJsonDecodeError extends Error {
  override readonly name = "JSONDecodeError";
  constructor(
    readonly msg: string,
    readonly pos: number,
    readonly lineno: number,
    readonly colno: number,
  ) {
    super(`${msg}: line ${lineno} column ${colno} (char ${pos})`);
  }
}

/** Python's other json.loads failures: ValueError (an integer over 4300 digits), RecursionError (nesting over 1000). */
export class PythonJsonLimitError extends Error {
  constructor(
    readonly pyType: "ValueError" | "RecursionError",
    message: string,
  ) {
    super(message);
    this.name = pyType;
  }
}

/** How dicts and numbers are built; strings, booleans, None and lists are JS values. */
export interface JsonBuild<T> {
  /** dict(pairs): a repeated key keeps its first position and takes the last value. */
  dict(pairs: [string, T][]): T;
  /** A number literal (its raw text; NaN, Infinity, -Infinity too) as a value. */
  number?(raw: string, value: number): T;
}

const WHITESPACE = new Set([" ", "\t", "\n", "\r"]);
const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/y;
const CONSTANTS = [
  ["null", null],
  ["true", true],
  ["false", false],
  ["NaN", NaN],
  ["Infinity", Infinity],
  ["-Infinity", -Infinity],
] as const;
const MAX_DEPTH = 1000;
const MAX_INT_DIGITS = 4300;

/** Raised where Python's scanner raises StopIteration: no JSON value starts here. */
class NoValue {
  constructor(readonly index: number) {}
}

/** The error at a UTF-16 index, counted in code points as Python counts. */
function decodeError(text: string, message: string, index: number): PythonJsonDecodeError {
  const before = [...text.slice(0, index)];
  const line = before.filter((ch) => ch === "\n").length + 1;
  return new PythonJsonDecodeError(message, before.length, line, before.length - before.lastIndexOf("\n"));
}

class Scanner<T> {
  private depth = 0;
  constructor(
    private readonly s: string,
    private readonly build: JsonBuild<T>,
  ) {}

  skip(i: number): number {
    while (i < this.s.length && WHITESPACE.has(this.s[i]!)) i++;
    return i;
  }

  fail(message: string, index: number): never {
    throw decodeError(this.s, message, index);
  }

  private number(raw: string, value: number): T {
    return this.build.number ? this.build.number(raw, value) : (value as T);
  }

  value(i: number): [T, number] {
    const s = this.s;
    if (i >= s.length) throw new NoValue(i);
    const c = s[i]!;
    if (c === '"') return this.string(i + 1) as [T, number];
    if (c === "{" || c === "[") {
      if (++this.depth > MAX_DEPTH) throw new PythonJsonLimitError("RecursionError", "maximum recursion depth exceeded while decoding a JSON document");
      const result = c === "{" ? this.object(i + 1) : (this.array(i + 1) as [T, number]);
      this.depth--;
      return result;
    }
    for (const [word, value] of CONSTANTS) {
      if (!s.startsWith(word, i)) continue;
      return [typeof value === "number" ? this.number(word, value) : (value as T), i + word.length];
    }
    NUMBER.lastIndex = i;
    const match = NUMBER.exec(s);
    if (!match) throw new NoValue(i);
    const digits = match[0].replace("-", "").length;
    if (match[1] === undefined && match[2] === undefined && digits > MAX_INT_DIGITS) {
      const message = `Exceeds the limit (${MAX_INT_DIGITS} digits) for integer string conversion: value has ${digits} digits; use sys.set_int_max_str_digits() to increase the limit`;
      throw new PythonJsonLimitError("ValueError", message);
    }
    return [this.number(match[0], Number(match[0])), i + match[0].length];
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
      // \uXXXX, where Python also wants a character after the four digits (a surrogate pair joins as JS joins it).
      const digits = s.slice(j + 2, j + 6);
      if (j + 6 >= s.length || !/^[0-9a-fA-F]{4}$/.test(digits)) this.fail("Invalid \\uXXXX escape", j + 1);
      out += String.fromCharCode(parseInt(digits, 16));
      i = j + 6;
    }
  }

  object(start: number): [T, number] {
    const s = this.s;
    const pairs: [string, T][] = [];
    let i = this.skip(start);
    if (s[i] === "}") return [this.build.dict(pairs), i + 1];
    for (;;) {
      if (s[i] !== '"') this.fail("Expecting property name enclosed in double quotes", i);
      const [key, afterKey] = this.string(i + 1);
      i = this.skip(afterKey);
      if (s[i] !== ":") this.fail("Expecting ':' delimiter", i);
      const [value, afterValue] = this.value(this.skip(i + 1));
      pairs.push([key, value]);
      i = this.skip(afterValue);
      if (s[i] === "}") return [this.build.dict(pairs), i + 1];
      if (s[i] !== ",") this.fail("Expecting ',' delimiter", i);
      const comma = i;
      i = this.skip(i + 1);
      if (s[i] === "}") this.fail("Illegal trailing comma before end of object", comma);
    }
  }

  array(start: number): [T[], number] {
    const s = this.s;
    const list: T[] = [];
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

/**
 * json.loads(text), building dicts (and, if asked, numbers) as the caller wants them; T must hold strings, booleans,
 * null, numbers (unless `number` is given) and arrays of T. Throws PythonJsonDecodeError or PythonJsonLimitError.
 */
export function pyJsonLoads<T>(text: string, build: JsonBuild<T>): T {
  if (text.startsWith("\ufeff")) throw decodeError(text, "Unexpected UTF-8 BOM (decode using utf-8-sig)", 0);
  const scanner = new Scanner(text, build);
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

// Python's json.loads and == on its results, where they differ from JSON.parse and ===.

/** json.JSONDecodeError: the arguments are not JSON (NeMo Gym then treats them as {}). */
export class PythonJsonError extends Error {}

const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/y;
const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
// CPython refuses to convert integers longer than this (ValueError, which NeMo Gym does not catch).
const MAX_INT_DIGITS = 4300;

/** Recursive descent over Python's JSON: also NaN, Infinity and -Infinity; control characters in strings refused. */
class Parser {
  private pos = 0;
  constructor(private readonly text: string) {}

  private fail(message: string): never {
    throw new PythonJsonError(`${message}: char ${this.pos}`);
  }

  private skipSpace(): void {
    while (this.pos < this.text.length && " \t\n\r".includes(this.text[this.pos]!)) this.pos++;
  }

  parseDocument(): unknown {
    this.skipSpace();
    const value = this.value();
    this.skipSpace();
    if (this.pos !== this.text.length) this.fail("Extra data");
    return value;
  }

  private literal(word: string, value: unknown): unknown {
    if (!this.text.startsWith(word, this.pos)) this.fail("Expecting value");
    this.pos += word.length;
    return value;
  }

  private value(): unknown {
    const ch = this.text[this.pos];
    switch (ch) {
      case "{":
        return this.object();
      case "[":
        return this.array();
      case '"':
        return this.string();
      case "n":
        return this.literal("null", null);
      case "t":
        return this.literal("true", true);
      case "f":
        return this.literal("false", false);
      case "N":
        return this.literal("NaN", Number.NaN);
      case "I":
        return this.literal("Infinity", Number.POSITIVE_INFINITY);
    }
    if (ch === "-" && this.text.startsWith("-Infinity", this.pos)) return this.literal("-Infinity", Number.NEGATIVE_INFINITY);
    NUMBER.lastIndex = this.pos;
    const m = NUMBER.exec(this.text);
    if (!m) this.fail("Expecting value");
    this.pos += m[0].length;
    if (m[1] === undefined && m[2] === undefined && m[0].replace("-", "").length > MAX_INT_DIGITS) {
      throw new RangeError(`Exceeds the limit (${MAX_INT_DIGITS} digits) for integer string conversion`);
    }
    return Number(m[0]);
  }

  private string(): string {
    this.pos++;
    let out = "";
    for (;;) {
      const ch = this.text[this.pos];
      if (ch === undefined) this.fail("Unterminated string starting at");
      if (ch === '"') {
        this.pos++;
        return out;
      }
      if (ch < " ") this.fail("Invalid control character at");
      if (ch !== "\\") {
        out += ch;
        this.pos++;
        continue;
      }
      const escape = this.text[this.pos + 1];
      if (escape === "u") {
        const hex = this.text.slice(this.pos + 2, this.pos + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail("Invalid \\uXXXX escape");
        out += String.fromCharCode(parseInt(hex, 16));
        this.pos += 6;
      } else if (escape !== undefined && ESCAPES[escape] !== undefined) {
        out += ESCAPES[escape];
        this.pos += 2;
      } else {
        this.fail("Invalid \\escape");
      }
    }
  }

  private array(): unknown[] {
    this.pos++;
    const out: unknown[] = [];
    this.skipSpace();
    if (this.text[this.pos] === "]") {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skipSpace();
      out.push(this.value());
      this.skipSpace();
      const ch = this.text[this.pos++];
      if (ch === "]") return out;
      if (ch !== ",") this.fail("Expecting ',' delimiter");
    }
  }

  private object(): Record<string, unknown> {
    this.pos++;
    // A null prototype keeps "__proto__" an ordinary key, as it is in Python.
    const out = Object.create(null) as Record<string, unknown>;
    this.skipSpace();
    if (this.text[this.pos] === "}") {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skipSpace();
      if (this.text[this.pos] !== '"') this.fail("Expecting property name enclosed in double quotes");
      const key = this.string();
      this.skipSpace();
      if (this.text[this.pos++] !== ":") this.fail("Expecting ':' delimiter");
      this.skipSpace();
      out[key] = this.value();
      this.skipSpace();
      const ch = this.text[this.pos++];
      if (ch === "}") return out;
      if (ch !== ",") this.fail("Expecting ',' delimiter");
    }
  }
}

/** Python's json.loads. Throws PythonJsonError where it raises JSONDecodeError. */
export function pythonJsonLoads(text: string): unknown {
  return new Parser(text).parseDocument();
}

export function isDict(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Python's == on JSON values: True == 1 == 1.0, dicts by keys and values, lists in order, nan never equal. */
export function pyEqual(a: unknown, b: unknown): boolean {
  const numeric = (v: unknown) => (typeof v === "boolean" ? Number(v) : v);
  const x = numeric(a);
  const y = numeric(b);
  if (typeof x === "number" || typeof y === "number") return x === y;
  if (Array.isArray(x) || Array.isArray(y)) {
    return Array.isArray(x) && Array.isArray(y) && x.length === y.length && x.every((v, i) => pyEqual(v, y[i]));
  }
  if (isDict(x) && isDict(y)) {
    const keys = Object.keys(x);
    return keys.length === Object.keys(y).length && keys.every((k) => Object.hasOwn(y, k) && pyEqual(x[k], y[k]));
  }
  return x === y;
}

/** Python's `key in container` for a JSON value: dict keys, list items, substrings; a TypeError otherwise. */
export function pyContains(container: unknown, key: string): boolean {
  if (isDict(container)) return Object.hasOwn(container, key);
  if (Array.isArray(container)) return container.some((item) => pyEqual(item, key));
  if (typeof container === "string") return container.includes(key);
  throw new TypeError(`argument of type '${container === null ? "NoneType" : typeof container}' is not iterable`);
}

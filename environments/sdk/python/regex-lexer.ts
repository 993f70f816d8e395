// Python `re` pattern lexing for the translator in regex-translate.ts: errors, a cursor, escapes and character classes.
import { PY_WHITESPACE, PY_WORD } from "./text.js";

/** Python's re.error (re.PatternError since 3.13): the pattern does not compile in Python either. */
export class PythonRegexError extends Error {
  override readonly name = "PythonRegexError";
}

/** Valid Python that has no JS translation here; raised rather than guessing at a match. */
export class UnsupportedPythonRegex extends Error {
  override readonly name = "UnsupportedPythonRegex";
}

/** The inline flags in force (re.IGNORECASE, DOTALL, MULTILINE, VERBOSE, ASCII). */
export interface Flags {
  ignoreCase: boolean;
  dotAll: boolean;
  multiline: boolean;
  verbose: boolean;
  ascii: boolean;
}

export const ASCII_WORD = "A-Za-z0-9_";
export const ASCII_SPACE = "\\t\\n\\v\\f\\r ";
export const DIGIT = /^[0-9]$/;
export const OCTAL = /^[0-7]$/;
const HEX = /^[0-9a-fA-F]$/;
const SIMPLE_ESCAPES: Record<string, string> = { a: "\x07", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v" };

/**
 * Under IGNORECASE sre matches a character when its lowercase equals the pattern's (İ lowercases to i) or the two
 * are tied in re._casefix (i and ı): so i, I, İ and ı all match each other. JS's i flag folds İ and ı to themselves.
 */
const DOTTED_DOTLESS = [0x49, 0x69, 0x130, 0x131];
const DOTTED_DOTLESS_BODY = DOTTED_DOTLESS.map((cp) => `\\u{${cp.toString(16)}}`).join("");

/** A literal under IGNORECASE: the four i's as one class, anything else left to JS's i flag. */
export function caseLiteral(js: string, ch: string, ignoreCase: boolean): string {
  return ignoreCase && DOTTED_DOTLESS.includes(ch.codePointAt(0)!) ? `[${DOTTED_DOTLESS_BODY}]` : js;
}

/** One character as a JS u-mode escape, safe anywhere in a pattern or class. */
export const codeUnit = (ch: string) => `\\u{${ch.codePointAt(0)!.toString(16)}}`;

/** `\w` as a JS class body, Unicode or (re.ASCII) ASCII. */
export const wordBody = (ascii: boolean) => (ascii ? ASCII_WORD : PY_WORD);

/** Python's \b and \B are Unicode-aware; JS's are ASCII-only even with the u flag. `w` is one word character. */
export function wordBoundary(w: string, negate: boolean): string {
  // Python's \B (before 3.14) never matches in an empty string.
  return negate ? `(?:(?<=${w})(?=${w})|(?<!${w})(?!${w})(?!^$))` : `(?:(?<=${w})(?!${w})|(?<!${w})(?=${w}))`;
}

/** The pattern as code points, with a read position. */
export class Cursor {
  protected readonly chars: string[];
  protected pos = 0;

  constructor(pattern: string) {
    this.chars = [...pattern];
  }

  protected peek(offset = 0): string | undefined {
    return this.chars[this.pos + offset];
  }

  protected fail(message: string): never {
    throw new PythonRegexError(`${message} at position ${this.pos}`);
  }

  /** A group name up to `terminator`, which must be an identifier as Python requires. */
  protected readName(terminator: string): string {
    let name = "";
    while (this.pos < this.chars.length && this.chars[this.pos] !== terminator) name += this.chars[this.pos++];
    if (this.pos >= this.chars.length) this.fail("missing group name terminator");
    this.pos++;
    if (!/^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*$/u.test(name)) this.fail(`bad character in group name '${name}'`);
    return name;
  }

  /** An escape standing for one character (\n, \x41, \u00e9, \0, \.), in or out of a class. */
  protected literalEscape(c: string, inClass: boolean): string {
    const simple = SIMPLE_ESCAPES[c];
    if (simple !== undefined) return simple;
    if (inClass && c === "b") return "\b";
    if (c === "x" || c === "u" || c === "U") {
      const length = c === "x" ? 2 : c === "u" ? 4 : 8;
      const hex = this.chars.slice(this.pos, this.pos + length);
      if (hex.length < length || !hex.every((h) => HEX.test(h))) this.fail(`incomplete escape \\${c}${hex.join("")}`);
      this.pos += length;
      const value = parseInt(hex.join(""), 16);
      if (value > 0x10ffff) this.fail(`bad escape \\${c}${hex.join("")}`);
      return String.fromCodePoint(value);
    }
    if (OCTAL.test(c) && (inClass || c === "0")) {
      let digits = c;
      while (digits.length < 3 && OCTAL.test(this.peek() ?? "")) digits += this.chars[this.pos++];
      const value = parseInt(digits, 8);
      if (value > 0o377) this.fail(`octal escape value \\${digits} outside of range 0-0o377`);
      return String.fromCodePoint(value);
    }
    if (c === "N") throw new UnsupportedPythonRegex("\\N{name} escapes are not supported");
    if (/^[A-Za-z0-9]$/.test(c)) this.fail(`bad escape \\${c}`);
    return c;
  }

  /** A [...] class as one JS atom (its opening bracket already read). */
  protected characterClass(ascii: boolean, ignoreCase = false): string {
    const negate = this.peek() === "^";
    if (negate) this.pos++;
    let body = "";
    const complements: string[] = [];
    let empty = true;
    const covers = (low: string, high: string) => DOTTED_DOTLESS.some((cp) => cp >= low.codePointAt(0)! && cp <= high.codePointAt(0)!);
    let dotted = false;
    for (;;) {
      const ch = this.chars[this.pos++];
      if (ch === undefined) this.fail("unterminated character set");
      if (ch === "]" && !empty) break;
      empty = false;
      const item = this.classItem(ch, ascii);
      const isRange = this.peek() === "-" && this.peek(1) !== undefined && this.peek(1) !== "]";
      if (typeof item !== "string") {
        if (isRange) this.fail("bad character range");
        if (item.negated) complements.push(`[^${item.body}]`);
        else body += item.body;
      } else if (isRange) {
        this.pos++;
        const high = this.classItem(this.chars[this.pos++]!, ascii);
        if (typeof high !== "string") this.fail("bad character range");
        if (high.codePointAt(0)! < item.codePointAt(0)!) this.fail("bad character range");
        body += `${codeUnit(item)}-${codeUnit(high)}`;
        dotted ||= covers(item, high);
      } else {
        body += codeUnit(item);
        dotted ||= covers(item, item);
      }
    }
    if (ignoreCase && dotted) body += DOTTED_DOTLESS_BODY;
    if (complements.length === 0) return `[${negate ? "^" : ""}${body}]`;
    // A JS u-mode class cannot hold a complement (\S \W \D), so the class becomes an alternation.
    const union = [...(body === "" ? [] : [`[${body}]`]), ...complements].join("|");
    return negate ? `(?:(?!${union})[\\s\\S])` : `(?:${union})`;
  }

  /** One class member: its character, or a shorthand class (\d \s \w and complements). */
  private classItem(ch: string, ascii: boolean): string | { body: string; negated: boolean } {
    if (ch !== "\\") return ch;
    const c = this.chars[this.pos++];
    if (c === undefined) this.fail("unterminated character set");
    const lower = c.toLowerCase();
    const bodies: Record<string, string> = {
      d: ascii ? "0-9" : "\\p{Nd}",
      s: ascii ? ASCII_SPACE : PY_WHITESPACE,
      w: wordBody(ascii),
    };
    if ((lower === "d" || lower === "s" || lower === "w") && bodies[lower]) return { body: bodies[lower], negated: c !== lower };
    if (DIGIT.test(c) && !OCTAL.test(c)) this.fail(`bad escape \\${c}`);
    return this.literalEscape(c, true);
  }
}

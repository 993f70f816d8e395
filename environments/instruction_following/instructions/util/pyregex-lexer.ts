// The lexical half of the Python-regex translator (pyregex.ts): escapes, character classes and `{m,n}` repeats.
import { PyError, WORD, WS } from "./python.js";

export const SHORTHAND: Record<string, string> = { d: String.raw`\p{Nd}`, w: WORD, s: WS };
const SIMPLE_ESCAPES: Record<string, number> = { a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11 };
const SYNTAX = new Set("^$\\.*+?()[]{}|/");

export function fail(message: string): never {
  throw new PyError("re.error", message);
}

export function literal(cp: number): string {
  const ch = String.fromCodePoint(cp);
  return SYNTAX.has(ch) ? `\\${ch}` : ch;
}

function classChar(cp: number): string {
  return `\\u{${cp.toString(16)}}`;
}

/** A cursor over the pattern's code points. */
export class Lexer {
  protected i = 0;

  constructor(protected readonly src: string[]) {}

  protected peek(offset = 0): string | undefined {
    return this.src[this.i + offset];
  }

  protected hex(count: number): number {
    const digits = this.src.slice(this.i, this.i + count).join("");
    if (!new RegExp(`^[0-9a-fA-F]{${count}}$`).test(digits)) fail(`incomplete escape at position ${this.i}`);
    this.i += count;
    const cp = parseInt(digits, 16);
    if (cp > 0x10ffff) fail("bad escape (code point out of range)");
    return cp;
  }

  /** A character escape's code point (shared by classes and atoms). */
  protected charEscape(ch: string): number {
    if (ch in SIMPLE_ESCAPES) return SIMPLE_ESCAPES[ch]!;
    if (ch === "x") return this.hex(2);
    if (ch === "u") return this.hex(4);
    if (ch === "U") return this.hex(8);
    if (/[A-Za-z]/.test(ch)) fail(`bad escape \\${ch}`);
    return ch.codePointAt(0)!;
  }

  protected characterClass(): string {
    const items: string[] = [];
    const negatedShorthands: string[] = [];
    let negate = false;
    if (this.peek() === "^") {
      negate = true;
      this.i++;
    }
    let firstItem = true;
    for (;;) {
      const ch = this.src[this.i++];
      if (ch === undefined) fail("unterminated character set");
      if (ch === "]" && !firstItem) break;
      firstItem = false;
      let lo: number;
      if (ch === "\\") {
        const e = this.src[this.i++];
        if (e === undefined) fail("bad escape (end of pattern)");
        if ("dsw".includes(e)) {
          items.push(SHORTHAND[e]!);
          continue;
        }
        if ("DSW".includes(e)) {
          negatedShorthands.push(SHORTHAND[e.toLowerCase()]!);
          continue;
        }
        if (/[0-9]/.test(e)) {
          let digits = e;
          while (digits.length < 3 && this.peek() !== undefined && /[0-7]/.test(this.peek()!)) digits += this.src[this.i++];
          if (!/^[0-7]+$/.test(digits)) fail("bad escape in character class");
          lo = parseInt(digits, 8);
        } else {
          lo = this.charEscape(e);
        }
      } else {
        lo = ch.codePointAt(0)!;
      }
      if (this.peek() === "-" && this.peek(1) !== undefined && this.peek(1) !== "]") {
        this.i++;
        const hiCh = this.src[this.i++]!;
        let hi: number;
        if (hiCh === "\\") {
          const e = this.src[this.i++];
          if (e === undefined) fail("bad escape (end of pattern)");
          if ("dDsSwW".includes(e)) fail(`bad character range`);
          hi = this.charEscape(e);
        } else {
          hi = hiCh.codePointAt(0)!;
        }
        if (hi < lo) fail("bad character range");
        items.push(`${classChar(lo)}-${classChar(hi)}`);
      } else {
        items.push(classChar(lo));
      }
    }
    const positive = `[${items.join("")}]`;
    if (negatedShorthands.length === 0) return negate ? `[^${items.join("")}]` : positive;
    const alternatives = [...(items.length ? [positive] : []), ...negatedShorthands.map((s) => `[^${s}]`)].join("|");
    return negate ? `(?:(?!${alternatives})[\\s\\S])` : `(?:${alternatives})`;
  }

  /** `{m}`, `{m,}`, `{,n}`, `{m,n}` at the current position (after "{"), or null when "{" is a literal. */
  protected braces(): [number, number] | null {
    const here = this.i;
    if (this.peek() === "}") return null;
    let lo = "";
    let hi = "";
    while (this.peek() !== undefined && /[0-9]/.test(this.peek()!)) lo += this.src[this.i++];
    if (this.peek() === ",") {
      this.i++;
      while (this.peek() !== undefined && /[0-9]/.test(this.peek()!)) hi += this.src[this.i++];
    } else {
      hi = lo;
    }
    if (this.peek() !== "}") {
      this.i = here;
      return null;
    }
    this.i++;
    const min = lo ? Number(lo) : 0;
    const max = hi ? Number(hi) : Infinity;
    if (max < min) fail("min repeat greater than max repeat");
    return [min, max];
  }
}

// Python `re` patterns translated to JS u-mode source: groups, quantifiers, anchors, flags, Python's error checks.
import { ASCII_SPACE, caseLiteral, codeUnit, Cursor, DIGIT, OCTAL, UnsupportedPythonRegex, wordBody, wordBoundary, type Flags } from "./regex-lexer.js";
import { PY_WHITESPACE } from "./text.js";

/** Minimum and maximum match length, for Python's fixed-width lookbehind rule. */
type Width = [number, number];

interface Frame {
  flags: Flags;
  /** Where the group starts in the output (what a quantifier after it applies to). */
  start: number;
  close: string;
  lookbehind: boolean;
  group: number | undefined;
  alternatives: Width[];
  current: Width;
}

const JS_SYNTAX = new Set([..."^$\\.*+?()[]{}|/"]);
const VERBOSE_SPACE = new Set([..." \t\n\r\v\f"]);
const INF = Number.POSITIVE_INFINITY;
const add = (a: Width, b: Width): Width => [a[0] + b[0], a[1] + b[1]];

/**
 * One pass over the pattern, emitting JS and raising where Python's sre_parse raises. Every Python group
 * becomes the named JS group `g<n>` (backreferences use the name), so the helper groups that emulate atomic
 * groups and possessive repeats (Python 3.11+) never shift a reference, and callers read groups by name.
 */
export class Translator extends Cursor {
  private out = "";
  readonly flags: Flags;
  groups = 0;
  /** Python group name → group number. */
  readonly names = new Map<string, number>();
  private readonly groupWidths = new Map<number, Width>();
  private readonly stack: Frame[] = [];
  private helpers = 0;
  private alternatives: Width[] = [];
  private current: Width = [0, 0];
  /** The last atom's width (null: nothing to repeat), the width before it, and where it starts in the output. */
  private last: Width | null = null;
  private beforeLast: Width = [0, 0];
  private lastStart = 0;
  private lastQuantified = false;

  constructor(pattern: string, flags: Partial<Flags>) {
    super(pattern);
    this.flags = { ignoreCase: false, dotAll: false, multiline: false, verbose: false, ascii: false, ...flags };
  }

  private atom(js: string, width: Width | null, start = this.out.length): void {
    this.out += js;
    this.beforeLast = this.current;
    if (width) this.current = add(this.current, width);
    this.last = width;
    this.lastStart = start;
    this.lastQuantified = false;
  }

  translate(): string {
    this.leadingFlags();
    while (this.pos < this.chars.length) this.step();
    if (this.stack.length > 0) this.fail("missing ), unterminated subpattern");
    return this.out;
  }

  /** Python 3.11+ accepts global inline flags, (?i) (?s) (?x)…, only at the start. */
  private leadingFlags(): void {
    for (;;) {
      const m = /^\(\?([aiLmsux]+)\)/.exec(this.chars.slice(this.pos, this.pos + 12).join(""));
      if (!m) return;
      this.applyFlags(m[1]!, true, false);
      this.pos += m[0].length;
    }
  }

  private applyFlags(letters: string, on: boolean, scoped: boolean): void {
    for (const letter of letters) {
      if (letter === "L") this.fail("bad inline flags: cannot use 'L' flag with a str pattern");
      if (letter === "i" && on !== this.flags.ignoreCase) {
        // JS has no scoped case-insensitivity in every engine we target; a no-op scope is fine.
        if (scoped) throw new UnsupportedPythonRegex("a scoped ignore-case flag has no JS equivalent here");
        this.flags.ignoreCase = on;
      }
      if (letter === "s") this.flags.dotAll = on;
      if (letter === "m") this.flags.multiline = on;
      if (letter === "x") this.flags.verbose = on;
      if (letter === "a") this.flags.ascii = on;
    }
    // re.ASCII with IGNORECASE folds case in ASCII only; JS's i flag always folds Unicode.
    if (this.flags.ascii && this.flags.ignoreCase) throw new UnsupportedPythonRegex("re.ASCII with IGNORECASE has no JS equivalent");
  }

  private step(): void {
    const ch = this.chars[this.pos++]!;
    if (this.flags.verbose && VERBOSE_SPACE.has(ch)) return;
    if (this.flags.verbose && ch === "#") {
      while (this.pos < this.chars.length && this.chars[this.pos] !== "\n") this.pos++;
      return;
    }
    switch (ch) {
      case "\\":
        return this.escape();
      case "[":
        return this.atom(this.characterClass(this.flags.ascii, this.flags.ignoreCase), [1, 1]);
      case "(":
        return this.openGroup();
      case ")":
        return this.closeGroup();
      case "|":
        return this.alternative();
      case "*":
      case "+":
      case "?":
        return this.quantifier(ch === "+" ? 1 : 0, ch === "?" ? 1 : INF, ch);
      case "{":
        return this.brace();
      case ".":
        return this.atom(this.flags.dotAll ? "[\\s\\S]" : "[^\\n]", [1, 1]);
      case "^":
        // JS's own ^ and $ (no m flag) are the input's ends; V8 can misjudge lookbehinds next to astral characters.
        return this.atom(this.flags.multiline ? "(?:^|(?<=\\n))" : "^", null);
      case "$":
        // Python's $ also matches just before a final newline.
        return this.atom(this.flags.multiline ? "(?=\\n|$)" : "(?=\\n?$)", null);
      default:
        return this.atom(caseLiteral(JS_SYNTAX.has(ch) ? `\\${ch}` : ch, ch, this.flags.ignoreCase), [1, 1]);
    }
  }

  private alternative(): void {
    this.alternatives.push(this.current);
    this.current = [0, 0];
    this.out += "|";
    this.last = null;
    this.lastQuantified = false;
  }

  /** Wraps output from `start` so it matches once and never gives back: an atomic group. */
  private atomic(start: number): void {
    const name = `h${++this.helpers}`;
    this.out = `${this.out.slice(0, start)}(?:(?=(?<${name}>${this.out.slice(start)}))\\k<${name}>)`;
  }

  private quantifier(min: number, max: number, js: string): void {
    if (!this.last) this.fail("nothing to repeat");
    if (this.lastQuantified) this.fail("multiple repeat");
    const [lo, hi] = this.last;
    const scaled: Width = [min === 0 ? 0 : lo * min, hi === 0 || max === 0 ? 0 : hi * max];
    this.current = add(this.beforeLast, scaled);
    this.out += js;
    if (this.peek() === "?") {
      this.pos++;
      this.out += "?";
    } else if (this.peek() === "+") {
      // Possessive (Python 3.11+): match greedily once, never give back.
      this.pos++;
      this.atomic(this.lastStart);
    }
    this.last = null;
    this.lastQuantified = true;
  }

  /** `{m,n}` as Python reads it (digits, optional comma, digits, brace); anything else is a literal `{`. */
  private brace(): void {
    const m = /^(\d*)(,?)(\d*)\}/.exec(this.chars.slice(this.pos, this.pos + 40).join(""));
    if (!m || m[0] === "}") return this.atom("\\{", [1, 1]);
    const min = m[1] === "" ? 0 : Number(m[1]);
    const max = m[2] === "" ? min : m[3] === "" ? INF : Number(m[3]);
    if (max < min) this.fail("min repeat greater than max repeat");
    if (!this.last) this.fail("nothing to repeat");
    this.pos += m[0].length;
    this.quantifier(min, max, max === INF ? `{${min},}` : `{${min},${max}}`);
  }

  private openGroup(): void {
    const frame: Frame = {
      flags: { ...this.flags },
      start: this.out.length,
      close: ")",
      lookbehind: false,
      group: undefined,
      alternatives: this.alternatives,
      current: this.current,
    };
    const capture = () => {
      frame.group = ++this.groups;
      this.out += `(?<g${frame.group}>`;
    };
    if (this.peek() !== "?") capture();
    else {
      this.pos++;
      const next = this.peek();
      const after = this.peek(1);
      if (next === ":") {
        this.pos++;
        this.out += "(?:";
      } else if (next === "=" || next === "!" || (next === "<" && (after === "=" || after === "!"))) {
        // A lookaround is closed inside a group of its own: Python lets it be quantified, JS only a group.
        frame.lookbehind = next === "<";
        this.out += `(?:(?${frame.lookbehind ? `<${after}` : next}`;
        this.pos += frame.lookbehind ? 2 : 1;
        frame.close = "))";
      } else if (next === ">") {
        // Atomic group (Python 3.11+): a lookahead that captures, then consumes exactly the capture.
        this.pos++;
        const name = `h${++this.helpers}`;
        this.out += `(?:(?=(?<${name}>`;
        frame.close = `))\\k<${name}>)`;
      } else if (next === "P" && after === "<") {
        this.pos += 2;
        const name = this.readName(">");
        if (this.names.has(name)) this.fail(`redefinition of group name '${name}'`);
        capture();
        this.names.set(name, frame.group!);
      } else if (next === "P" && after === "=") {
        this.pos += 2;
        const name = this.readName(")");
        const group = this.names.get(name);
        if (group === undefined) this.fail(`unknown group name '${name}'`);
        return this.reference(group);
      } else if (next === "#") {
        while (this.pos < this.chars.length && this.chars[this.pos] !== ")") this.pos++;
        if (this.pos >= this.chars.length) this.fail("missing ), unterminated comment");
        this.pos++;
        return;
      } else if (next === "(") {
        throw new UnsupportedPythonRegex("conditional groups are not supported");
      } else {
        const m = /^([aimsux]*)(?:-([imsx]*))?([:)])/.exec(this.chars.slice(this.pos, this.pos + 16).join(""));
        if (!m || (m[1] === "" && m[2] === undefined)) this.fail(`unknown extension ?${next ?? ""}`);
        if (m[2] === "") this.fail("missing flag");
        if (m[3] === ")") this.fail("global flags not at the start of the expression");
        this.pos += m[0].length;
        this.applyFlags(m[1]!, true, true);
        this.applyFlags(m[2] ?? "", false, true);
        this.out += "(?:";
      }
    }
    this.stack.push(frame);
    this.alternatives = [];
    this.current = [0, 0];
    this.last = null;
    this.lastQuantified = false;
  }

  private closeGroup(): void {
    const frame = this.stack.pop();
    if (!frame) this.fail("unbalanced parenthesis");
    const widths = [...this.alternatives, this.current];
    const width: Width = [Math.min(...widths.map((w) => w[0])), Math.max(...widths.map((w) => w[1]))];
    if (frame.lookbehind && width[0] !== width[1]) this.fail("look-behind requires fixed-width pattern");
    if (frame.group !== undefined) this.groupWidths.set(frame.group, width);
    Object.assign(this.flags, frame.flags);
    this.alternatives = frame.alternatives;
    this.current = frame.current;
    this.atom(frame.close, frame.close === "))" ? [0, 0] : width, frame.start);
  }

  /** A backreference to a closed group, by its JS name. */
  private reference(group: number): void {
    const width = this.groupWidths.get(group);
    if (!width) this.fail("cannot refer to an open group");
    this.atom(`\\k<g${group}>`, width);
  }

  private escape(): void {
    const c = this.chars[this.pos++];
    if (c === undefined) this.fail("bad escape (end of pattern)");
    const ascii = this.flags.ascii;
    const word = `[${wordBody(ascii)}]`;
    switch (c) {
      case "A":
        return this.atom("^", null);
      case "Z":
        return this.atom("$", null);
      case "b":
      case "B":
        return this.atom(wordBoundary(word, c === "B"), null);
      case "d":
        return this.atom(ascii ? "[0-9]" : "\\p{Nd}", [1, 1]);
      case "D":
        return this.atom(ascii ? "[^0-9]" : "\\P{Nd}", [1, 1]);
      case "s":
        return this.atom(`[${ascii ? ASCII_SPACE : PY_WHITESPACE}]`, [1, 1]);
      case "S":
        return this.atom(`[^${ascii ? ASCII_SPACE : PY_WHITESPACE}]`, [1, 1]);
      case "w":
        return this.atom(word, [1, 1]);
      case "W":
        return this.atom(`(?:(?!${word})[\\s\\S])`, [1, 1]);
    }
    if (DIGIT.test(c) && c !== "0") return this.numberEscape(c);
    const literal = this.literalEscape(c, false);
    this.atom(caseLiteral(codeUnit(literal), literal, this.flags.ignoreCase), [1, 1]);
  }

  /** \12 is a group reference, \123 (three octal digits) an octal escape, as sre_parse decides. */
  private numberEscape(c: string): void {
    let digits = c;
    if (DIGIT.test(this.peek() ?? "")) {
      digits += this.chars[this.pos++];
      if (OCTAL.test(digits[0]!) && OCTAL.test(digits[1]!) && OCTAL.test(this.peek() ?? "")) {
        digits += this.chars[this.pos++];
        const value = parseInt(digits, 8);
        if (value > 0o377) this.fail(`octal escape value \\${digits} outside of range 0-0o377`);
        return this.atom(codeUnit(String.fromCodePoint(value)), [1, 1]);
      }
    }
    const group = Number(digits);
    if (group > this.groups) this.fail(`invalid group reference ${group}`);
    this.reference(group);
  }
}

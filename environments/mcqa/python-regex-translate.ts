// Python `re` patterns translated to JS u-mode source: groups, quantifiers, anchors, flags, Python's error checks.
import { ASCII_SPACE, ASCII_WORD, codeUnit, Cursor, DIGIT, OCTAL, UnsupportedPythonRegex, WORD, wordBoundary } from "./python-regex-lexer.js";
import { PY_WHITESPACE } from "./python-text.js";

interface Flags {
  dotAll: boolean;
  multiline: boolean;
  verbose: boolean;
  ascii: boolean;
}

/** Minimum and maximum match length, for Python's fixed-width lookbehind rule. */
type Width = [number, number];

interface Frame {
  flags: Flags;
  assertion: boolean;
  lookbehind: boolean;
  group: number | undefined;
  alternatives: Width[];
  current: Width;
}

const JS_SYNTAX = new Set([..."^$\\.*+?()[]{}|/"]);
const VERBOSE_SPACE = new Set([..." \t\n\r\v\f"]);
const INF = Number.POSITIVE_INFINITY;
const add = (a: Width, b: Width): Width => [a[0] + b[0], a[1] + b[1]];

/** One pass over the pattern, emitting JS and raising where Python's sre_parse raises. */
export class Translator extends Cursor {
  /** Added to numbered backreferences when the translation is wrapped after a capturing group. */
  private readonly groupOffset: number;
  private out = "";
  private flags: Flags = { dotAll: false, multiline: false, verbose: false, ascii: false };
  private ignoreCase: boolean;
  groups = 0;
  private readonly groupWidths = new Map<number, Width>();
  private readonly names = new Map<string, number>();
  private readonly stack: Frame[] = [];
  private alternatives: Width[] = [];
  private current: Width = [0, 0];
  /** The last atom's width (null: nothing to repeat) and the width before it, for a quantifier to scale. */
  private last: Width | null = null;
  private beforeLast: Width = [0, 0];
  private lastQuantified = false;

  constructor(pattern: string, ignoreCase: boolean, groupOffset: number) {
    super(pattern);
    this.ignoreCase = ignoreCase;
    this.groupOffset = groupOffset;
  }

  private atom(js: string, width: Width | null): void {
    this.out += js;
    this.beforeLast = this.current;
    if (width) this.current = add(this.current, width);
    this.last = width;
    this.lastQuantified = false;
  }

  translate(): { source: string; flags: string } {
    this.leadingFlags();
    while (this.pos < this.chars.length) this.step();
    if (this.stack.length > 0) this.fail("missing ), unterminated subpattern");
    return { source: this.out, flags: `gu${this.ignoreCase ? "i" : ""}` };
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
      if (letter === "i" && on !== this.ignoreCase) {
        // JS has no scoped case-insensitivity (in the engines we target); a no-op scope is fine.
        if (scoped) throw new UnsupportedPythonRegex("a scoped ignore-case flag has no JS equivalent here");
        this.ignoreCase = on;
      }
      if (letter === "s") this.flags.dotAll = on;
      if (letter === "m") this.flags.multiline = on;
      if (letter === "x") this.flags.verbose = on;
      if (letter === "a") this.flags.ascii = on;
    }
    // re.ASCII with IGNORECASE folds case in ASCII only; JS's i flag always folds Unicode.
    if (this.flags.ascii && this.ignoreCase) throw new UnsupportedPythonRegex("re.ASCII with IGNORECASE has no JS equivalent");
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
        return this.atom(this.characterClass(this.flags.ascii), [1, 1]);
      case "(":
        return this.openGroup();
      case ")":
        return this.closeGroup();
      case "|":
        this.alternatives.push(this.current);
        this.current = [0, 0];
        this.out += "|";
        this.last = null;
        this.lastQuantified = false;
        return;
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
        return this.atom(JS_SYNTAX.has(ch) ? `\\${ch}` : ch, [1, 1]);
    }
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
      throw new UnsupportedPythonRegex("possessive quantifiers have no JS equivalent");
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
    const frame: Frame = { flags: { ...this.flags }, assertion: false, lookbehind: false, group: undefined, alternatives: this.alternatives, current: this.current };
    if (this.peek() !== "?") {
      frame.group = ++this.groups;
      this.out += "(";
    } else {
      this.pos++;
      const next = this.peek();
      const after = this.peek(1);
      if (next === ":") {
        this.pos++;
        this.out += "(?:";
      } else if (next === "=" || next === "!") {
        this.pos++;
        this.out += `(?:(?${next}`;
        frame.assertion = true;
      } else if (next === "<" && (after === "=" || after === "!")) {
        this.pos += 2;
        this.out += `(?:(?<${after}`;
        frame.assertion = true;
        frame.lookbehind = true;
      } else if (next === "P" && after === "<") {
        this.pos += 2;
        const name = this.readName(">");
        if (this.names.has(name)) this.fail(`redefinition of group name '${name}'`);
        frame.group = ++this.groups;
        this.names.set(name, frame.group);
        this.out += `(?<${name}>`;
      } else if (next === "P" && after === "=") {
        this.pos += 2;
        const name = this.readName(")");
        const group = this.names.get(name);
        if (group === undefined) this.fail(`unknown group name '${name}'`);
        const width = this.groupWidths.get(group);
        if (!width) this.fail("cannot refer to an open group");
        return this.atom(`\\k<${name}>`, width);
      } else if (next === "#") {
        while (this.pos < this.chars.length && this.chars[this.pos] !== ")") this.pos++;
        if (this.pos >= this.chars.length) this.fail("missing ), unterminated comment");
        this.pos++;
        return;
      } else if (next === ">" || next === "(") {
        throw new UnsupportedPythonRegex(next === ">" ? "atomic groups have no JS equivalent" : "conditional groups are not supported");
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

  private readName(terminator: string): string {
    let name = "";
    while (this.pos < this.chars.length && this.chars[this.pos] !== terminator) name += this.chars[this.pos++];
    if (this.pos >= this.chars.length) this.fail("missing group name terminator");
    this.pos++;
    if (!/^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*$/u.test(name)) this.fail(`bad character in group name '${name}'`);
    return name;
  }

  private closeGroup(): void {
    const frame = this.stack.pop();
    if (!frame) this.fail("unbalanced parenthesis");
    const widths = [...this.alternatives, this.current];
    const width: Width = [Math.min(...widths.map((w) => w[0])), Math.max(...widths.map((w) => w[1]))];
    if (frame.lookbehind && width[0] !== width[1]) this.fail("look-behind requires fixed-width pattern");
    if (frame.group !== undefined) this.groupWidths.set(frame.group, width);
    this.flags = frame.flags;
    this.alternatives = frame.alternatives;
    this.current = frame.current;
    // A lookaround is closed inside a group of its own: Python lets it be quantified, JS only a group.
    this.atom(frame.assertion ? "))" : ")", frame.assertion ? [0, 0] : width);
  }

  private escape(): void {
    const c = this.chars[this.pos++];
    if (c === undefined) this.fail("bad escape (end of pattern)");
    const ascii = this.flags.ascii;
    const word = `[${ascii ? ASCII_WORD : WORD}]`;
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
    this.atom(codeUnit(this.literalEscape(c, false)), [1, 1]);
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
    const width = this.groupWidths.get(group);
    if (!width) this.fail("cannot refer to an open group");
    // Wrapped so a following literal digit does not extend the reference.
    this.atom(`(?:\\${group + this.groupOffset})`, width);
  }


}

// Python `re` patterns run in JavaScript. IFEval passes user-given keywords, markers and phrases to Python's
// re as patterns (so "U.S." matches "U-S-" and "C++" is a possessive repeat), which this translator keeps:
// Unicode \w \s \d \b, `.` excluding only "\n", `$` before a final newline, `{` literal unless a repeat,
// possessive repeats and atomic groups (Python 3.11+), named groups, and Python's errors (nothing to repeat,
// bad escape, unbalanced parenthesis…) raised as PyError("re.error"). Not supported, and raised as errors:
// scoped inline flags `(?i:…)`, conditionals `(?(1)…)`, `\N{…}`, verbose (?x) and ASCII (?a) modes.
import { BOUNDARY, NON_BOUNDARY } from "./python.js";
import { Lexer, SHORTHAND, fail, literal } from "./pyregex-lexer.js";

export interface PyRegexOptions {
  ignoreCase?: boolean;
  multiline?: boolean;
}

export interface PyRegex {
  regex: RegExp;
  /** Capturing groups of the Python pattern (re.split returns them between the pieces). */
  groups: number;
}

interface Atom {
  text: string;
  /** Anchors (^ $ \b …) cannot be repeated in Python; lookarounds can, wrapped in a group for JavaScript. */
  kind: "atom" | "anchor" | "lookaround" | "repeated";
}

class Translator extends Lexer {
  private pyGroups = 0;
  /** Helper groups for possessive repeats and atomic groups; every group is named, so numbering never shifts. */
  private helpers = 0;
  private readonly closed = new Set<number>();
  private readonly names = new Map<string, number>();
  dotAll = false;

  constructor(
    src: string[],
    private multiline: boolean,
    public ignoreCase: boolean,
  ) {
    super(src);
  }

  get pythonGroups(): number {
    return this.pyGroups;
  }

  /** Leading global flags such as (?i) or (?ms); Python 3.11+ accepts them only there. */
  globalFlags(): void {
    for (;;) {
      const m = /^\(\?([aiLmsux]+)\)/.exec(this.src.slice(this.i, this.i + 12).join(""));
      if (!m) return;
      for (const flag of m[1]!) {
        if (flag === "i") this.ignoreCase = true;
        else if (flag === "m") this.multiline = true;
        else if (flag === "s") this.dotAll = true;
        else if (flag === "L") fail("bad inline flags: cannot use 'L' flag with a str pattern");
        else if (flag !== "u") fail(`unsupported inline flag (?${flag})`);
      }
      this.i += m[0].length;
    }
  }

  /** An escape outside a character class. */
  private escape(): Atom {
    const ch = this.src[this.i++];
    if (ch === undefined) fail("bad escape (end of pattern)");
    if (ch === "A") return { text: "^", kind: "anchor" };
    if (ch === "Z") return { text: "$", kind: "anchor" };
    if (ch === "b") return { text: BOUNDARY, kind: "anchor" };
    if (ch === "B") return { text: NON_BOUNDARY, kind: "anchor" };
    const lowerCh = ch.toLowerCase();
    if (lowerCh in SHORTHAND && "dDsSwW".includes(ch)) {
      return { text: ch === lowerCh ? `[${SHORTHAND[lowerCh]}]` : `[^${SHORTHAND[lowerCh]}]`, kind: "atom" };
    }
    if (/[0-9]/.test(ch)) return { text: this.numericEscape(ch), kind: "atom" };
    return { text: literal(this.charEscape(ch)), kind: "atom" };
  }

  private numericEscape(ch: string): string {
    const octal = (s: string | undefined) => s !== undefined && /[0-7]/.test(s);
    if (ch === "0") {
      let digits = "0";
      while (digits.length < 3 && octal(this.peek())) digits += this.src[this.i++];
      return literal(parseInt(digits, 8));
    }
    if (octal(ch) && octal(this.peek()) && octal(this.peek(1))) {
      const value = parseInt(ch + this.src[this.i]! + this.src[this.i + 1]!, 8);
      if (value > 0o377) fail("octal escape value outside of range 0-0o377");
      this.i += 2;
      return literal(value);
    }
    let digits = ch;
    if (this.peek() !== undefined && /[0-9]/.test(this.peek()!)) digits += this.src[this.i++];
    const group = Number(digits);
    if (group > this.pyGroups) fail(`invalid group reference ${group}`);
    if (!this.closed.has(group)) fail("cannot refer to an open group");
    return `\\k<g${group}>`;
  }

  /** Parses alternatives until ")" (inside a group) or the end. */
  alternation(inGroup: boolean): string {
    const branches: string[] = [];
    let atoms: Atom[] = [];
    for (;;) {
      const ch = this.src[this.i];
      if (ch === undefined || ch === ")" || ch === "|") {
        branches.push(atoms.map((a) => a.text).join(""));
        if (ch === undefined) {
          if (inGroup) fail("missing ), unterminated subpattern");
          break;
        }
        this.i++;
        if (ch === ")") {
          if (!inGroup) fail("unbalanced parenthesis");
          break;
        }
        atoms = [];
        continue;
      }
      this.i++;
      const quantifier = this.quantifierAt(ch);
      if (quantifier !== undefined) {
        const last = atoms[atoms.length - 1];
        if (last === undefined || last.kind === "anchor") fail("nothing to repeat");
        if (last.kind === "repeated") fail("multiple repeat");
        const body = last.kind === "lookaround" ? `(?:${last.text})` : last.text;
        atoms[atoms.length - 1] = { text: this.repeat(body, quantifier), kind: "repeated" };
        continue;
      }
      const atom = this.atom(ch);
      if (atom) atoms.push(atom);
    }
    return branches.join("|");
  }

  /** A quantifier starting at `ch` (already consumed), or undefined. */
  private quantifierAt(ch: string): string | undefined {
    if (ch === "*" || ch === "+" || ch === "?") return ch;
    if (ch === "{") {
      const range = this.braces();
      if (!range) return undefined;
      const [min, max] = range;
      return max === Infinity ? `{${min},}` : `{${min},${max}}`;
    }
    return undefined;
  }

  private repeat(atom: string, quantifier: string): string {
    if (this.peek() === "?") {
      this.i++;
      return `${atom}${quantifier}?`;
    }
    if (this.peek() === "+") {
      // Possessive (Python 3.11+): match greedily once, never give back.
      this.i++;
      const n = ++this.helpers;
      return `(?:(?=(?<p${n}>${atom}${quantifier}))\\k<p${n}>)`;
    }
    return `${atom}${quantifier}`;
  }

  /** One atom starting at `ch` (consumed); null for a comment, which adds nothing. */
  private atom(ch: string): Atom | null {
    if (ch === "\\") return this.escape();
    if (ch === ".") return { text: this.dotAll ? "[\\s\\S]" : "[^\\n]", kind: "atom" };
    if (ch === "^") return { text: this.multiline ? "(?:^|(?<=\\n))" : "^", kind: "anchor" };
    if (ch === "$") return { text: this.multiline ? "(?=\\n|$)" : "(?=\\n?$)", kind: "anchor" };
    if (ch === "[") return { text: this.characterClass(), kind: "atom" };
    if (ch === "(") return this.group();
    return { text: literal(ch.codePointAt(0)!), kind: "atom" };
  }

  private group(): Atom | null {
    if (this.peek() !== "?") return { text: this.capture(undefined), kind: "atom" };
    this.i++;
    const next = this.src[this.i++];
    if (next === ":") return { text: `(?:${this.alternation(true)})`, kind: "atom" };
    if (next === "=" || next === "!") return { text: `(?${next}${this.alternation(true)})`, kind: "lookaround" };
    if (next === "<" && (this.peek() === "=" || this.peek() === "!")) {
      const kind = this.src[this.i++]!;
      return { text: `(?<${kind}${this.alternation(true)})`, kind: "lookaround" };
    }
    if (next === "#") {
      while (this.peek() !== undefined && this.peek() !== ")") this.i++;
      if (this.peek() === undefined) fail("missing ), unterminated comment");
      this.i++;
      return null;
    }
    if (next === ">") {
      // Atomic group (Python 3.11+).
      const n = ++this.helpers;
      return { text: `(?:(?=(?<p${n}>${this.alternation(true)}))\\k<p${n}>)`, kind: "atom" };
    }
    if (next === "P" && this.peek() === "<") {
      this.i++;
      return { text: this.capture(this.groupName(">")), kind: "atom" };
    }
    if (next === "P" && this.peek() === "=") {
      this.i++;
      const name = this.groupName(")");
      const group = this.names.get(name);
      if (group === undefined) fail(`unknown group name '${name}'`);
      if (!this.closed.has(group)) fail("cannot refer to an open group");
      return { text: `\\k<g${group}>`, kind: "atom" };
    }
    if (next !== undefined && /[aiLmsux-]/.test(next)) fail("global flags not at the start of the expression, or scoped flags (unsupported)");
    fail(`unknown extension ?${next ?? ""}`);
  }

  private groupName(terminator: string): string {
    let name = "";
    while (this.peek() !== undefined && this.peek() !== terminator) name += this.src[this.i++];
    if (this.peek() === undefined) fail("missing group name terminator");
    this.i++;
    if (!/^[\p{L}_][\p{L}\p{N}_]*$/u.test(name)) fail(`bad character in group name '${name}'`);
    return name;
  }

  private capture(name: string | undefined): string {
    const py = ++this.pyGroups;
    if (name !== undefined) {
      if (this.names.has(name)) fail(`redefinition of group name '${name}'`);
      this.names.set(name, py);
    }
    const body = this.alternation(true);
    this.closed.add(py);
    return `(?<g${py}>${body})`;
  }
}

const cache = new Map<string, PyRegex>();

/** Compile a Python `re` pattern; every match function uses the global flag. Raises PyError("re.error"). */
export function compilePy(pattern: string, options: PyRegexOptions = {}): PyRegex {
  const key = `${options.ignoreCase ? "i" : ""}${options.multiline ? "m" : ""}:${pattern}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const t = new Translator([...pattern], options.multiline ?? false, options.ignoreCase ?? false);
  t.globalFlags();
  const source = t.alternation(false);
  let regex: RegExp;
  try {
    regex = new RegExp(source, `gu${t.ignoreCase ? "i" : ""}`);
  } catch (error) {
    fail(`pattern not supported here: ${(error as Error).message}`);
  }
  const compiled = { regex, groups: t.pythonGroups };
  if (cache.size > 500) cache.clear();
  cache.set(key, compiled);
  return compiled;
}

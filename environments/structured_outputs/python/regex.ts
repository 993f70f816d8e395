// Python `re` patterns (JSON Schema `pattern`, checked with re.search) translated to JS RegExp with Python's meaning.
import { ANY, COMPLEMENTED, END, START, bad, escape, quantifier, unsupported, type Flags } from "./regex-syntax.js";
import { PyError, type PyKey } from "./value.js";

interface OpenGroup {
  at: number;
  close: string;
  /** The Python group number, for capturing groups. */
  number?: number;
}

/**
 * One pass over the pattern. Every capturing group becomes a *named* JS group, so the wrapper groups that
 * emulate atomic groups and possessive quantifiers (Python 3.11+) never shift a backreference's number.
 */
class Translator {
  private out = "";
  private i = 0;
  private readonly flags: Flags = { ignoreCase: false, dotAll: false, multiline: false, ascii: false };
  private groups = 0;
  private readonly names = new Map<number, string>();
  private readonly closed = new Set<string>();
  private readonly open: OpenGroup[] = [];
  private wrappers = 0;
  /** Where in `out` the last atom starts (what a quantifier applies to). */
  private atom = 0;
  /** After a quantifier, "?" makes it lazy and "+" possessive; anything quantified twice is "multiple repeat". */
  private quantified: "no" | "greedy" | "done" = "no";

  constructor(private readonly p: string) {}

  private emitAtom(text: string, next: number): void {
    this.atom = this.out.length;
    this.out += text;
    this.i = next;
    this.quantified = "no";
  }

  /** Global flags are only allowed at the very start (Python 3.11+). */
  private leadingFlags(): void {
    for (let m = /^\(\?([aiLmsux]+)\)/.exec(this.p); m; m = /^\(\?([aiLmsux]+)\)/.exec(this.p.slice(this.i))) {
      const letters = m[1]!;
      if (letters.includes("L")) bad("bad inline flag: cannot use 'L' flag with a str pattern");
      if (letters.includes("x")) unsupported("verbose flag (?x)");
      this.flags.ignoreCase ||= letters.includes("i");
      this.flags.dotAll ||= letters.includes("s");
      this.flags.multiline ||= letters.includes("m");
      this.flags.ascii ||= letters.includes("a");
      this.i += m[0].length;
    }
  }

  private openGroup(text: string, close: string, length: number, number?: number): void {
    this.open.push({ at: this.out.length, close, number });
    this.out += text;
    this.i += length;
    this.quantified = "no";
  }

  /** `(` and the `(?…` forms: capturing, named, non-capturing, lookaround, atomic, comments, named backreferences. */
  private group(): void {
    const rest = this.p.slice(this.i);
    if (!rest.startsWith("(?")) {
      const n = ++this.groups;
      this.names.set(n, `__g${n}`);
      return this.openGroup(`(?<__g${n}>`, ")", 1, n);
    }
    const named = /^\(\?P<([^>]*)>/.exec(rest);
    if (named) {
      const n = ++this.groups;
      this.names.set(n, named[1]!);
      return this.openGroup(`(?<${named[1]}>`, ")", named[0].length, n);
    }
    const backref = /^\(\?P=([^)]*)\)/.exec(rest);
    if (backref) {
      if (!this.closed.has(backref[1]!)) bad(`unknown group name '${backref[1]}'`);
      return this.emitAtom(`\\k<${backref[1]}>`, this.i + backref[0].length);
    }
    if (rest.startsWith("(?#")) {
      const close = this.p.indexOf(")", this.i);
      if (close < 0) bad("missing ), unterminated comment");
      this.i = close + 1;
      return;
    }
    const opening = ["(?:", "(?=", "(?!", "(?<=", "(?<!"].find((o) => rest.startsWith(o));
    if (opening) return this.openGroup(opening, ")", opening.length);
    if (rest.startsWith("(?>")) {
      const name = `__a${++this.wrappers}`;
      // An atomic group is a lookahead that captures, then consumes exactly the capture.
      return this.openGroup(`(?=(?<${name}>`, `))\\k<${name}>`, 3);
    }
    if (rest.startsWith("(?(")) unsupported("conditional group");
    const flagGroup = /^\(\?[aiLmsux]*(?:-[imsx]+)?([:)])/.exec(rest);
    if (flagGroup?.[1] === ":") unsupported("scoped inline flags");
    if (flagGroup) bad("global flags not at the start of the expression");
    bad(`unknown extension ${rest.slice(0, 3)}`);
  }

  private closeGroup(): void {
    const group = this.open.pop();
    if (!group) bad("unbalanced parenthesis");
    if (group.number !== undefined) this.closed.add(this.names.get(group.number)!);
    this.out += group.close;
    this.atom = group.at;
    this.i++;
    this.quantified = "no";
  }

  /** `*`, `+`, `?` or `{m,n}` after an atom, with Python's lazy and possessive suffixes. */
  private repeat(text: string, next: number): void {
    const c = this.p[this.i];
    if (this.quantified === "greedy" && (c === "?" || c === "+")) {
      if (c === "+") {
        const name = `__a${++this.wrappers}`;
        this.out = `${this.out.slice(0, this.atom)}(?=(?<${name}>${this.out.slice(this.atom)}))\\k<${name}>`;
      } else this.out += "?";
      this.i++;
      this.quantified = "done";
      return;
    }
    if (this.quantified !== "no") bad("multiple repeat");
    this.out += text;
    this.i = next;
    this.quantified = "greedy";
  }

  /**
   * `[…]`. A \W or \S inside a set has no Unicode-mode JS form, so such a set becomes an alternation
   * (`[abc\S]` → `(?:[abc]|[^space])`) or, negated, a lookahead guard (`[^abc\S]` → `(?:(?![abc])[space])`).
   */
  private characterSet(): void {
    let i = this.i + 1;
    const negated = this.p[i] === "^";
    if (negated) i++;
    const first = i;
    let text = "";
    const complements: string[] = [];
    for (;;) {
      const c = this.p[i];
      if (c === undefined) bad("unterminated character set");
      if (c === "]" && i !== first) break;
      if (c === "\\") {
        const d = this.p[i + 1] ?? "";
        if (!this.flags.ascii && COMPLEMENTED[d] !== undefined) {
          complements.push(COMPLEMENTED[d]!);
          i += 2;
          continue;
        }
        const [escaped, next] = escape(this.p, i, true, this.flags.ascii);
        text += escaped;
        i = next;
        continue;
      }
      // "]" first in a set is a literal in Python; "[" inside a set is always one.
      text += c === "]" || c === "[" ? `\\${c}` : c;
      i++;
    }
    let js: string;
    if (complements.length === 0) js = `[${negated ? "^" : ""}${text}]`;
    else if (!negated) js = `(?:${[...(text ? [`[${text}]`] : []), ...complements.map((set) => `[^${set}]`)].join("|")})`;
    else {
      const guards = [...(text ? [`(?![${text}])`] : []), ...complements.slice(1).map((set) => `(?=[${set}])`)];
      js = `(?:${guards.join("")}[${complements[0]}])`;
    }
    this.emitAtom(js, i + 1);
  }

  run(): RegExp {
    this.leadingFlags();
    const p = this.p;
    while (this.i < p.length) {
      const c = p[this.i]!;
      if (c === "\\") {
        const ref = /^\\([1-9][0-9]?)/.exec(p.slice(this.i));
        if (ref && !/^\\[0-7]{3}/.test(p.slice(this.i))) {
          const name = this.names.get(Number(ref[1]));
          if (name === undefined || !this.closed.has(name)) bad(`invalid group reference ${ref[1]}`);
          this.emitAtom(`\\k<${name}>`, this.i + ref[0].length);
        } else this.emitAtom(...escape(p, this.i, false, this.flags.ascii));
      } else if (c === "[") this.characterSet();
      else if (c === "(") this.group();
      else if (c === ")") this.closeGroup();
      else if (c === "*" || c === "+" || c === "?") this.repeat(c, this.i + 1);
      else if (c === "{" && quantifier(p, this.i)) this.repeat(...quantifier(p, this.i)!);
      else if (c === ".") this.emitAtom(this.flags.dotAll ? ANY : "[^\\n]", this.i + 1);
      else if (c === "^") this.emitAtom(this.flags.multiline ? "(?<![^\\n])" : START, this.i + 1);
      else if (c === "$") this.emitAtom(this.flags.multiline ? `(?=\\n|${END})` : `(?=\\n?${END})`, this.i + 1);
      // Python reads a lone "{", "}" or "]" as a literal; the Unicode-mode JS pattern needs them escaped.
      else if (c === "{" || c === "}" || c === "]") this.emitAtom(`\\${c}`, this.i + 1);
      else {
        if (c === "|") this.quantified = "no";
        this.emitAtom(c, this.i + 1);
      }
    }
    if (this.open.length > 0) bad("missing ), unterminated subpattern");
    try {
      // Unicode mode: code points (not UTF-16 units) for `.`, and \p{…} for Python's Unicode classes.
      return new RegExp(this.out, this.flags.ignoreCase ? "iu" : "u");
    } catch (error) {
      return bad(error instanceof Error ? error.message : String(error));
    }
  }
}

const cache = new Map<string, RegExp>();

/** The compiled pattern; throws PyError("PatternError") where Python's re.compile fails. */
export function pyRegex(pattern: string): RegExp {
  let compiled = cache.get(pattern);
  if (!compiled) {
    compiled = new Translator(pattern).run();
    // Patterns come from request data; a bounded cache keeps a long-lived isolate small.
    if (cache.size > 500) cache.clear();
    cache.set(pattern, compiled);
  }
  return compiled;
}

/** re.search(pattern, text) is not None. */
export function pySearch(pattern: string, text: string): boolean {
  return pyRegex(pattern).test(text);
}

/** re.search on a dict key: a non-string key (YAML's `1:`) is a TypeError in Python. */
export function searchKey(pattern: string, key: PyKey): boolean {
  if (typeof key !== "string") throw new PyError("TypeError", "expected string or bytes-like object");
  return pySearch(pattern, key);
}


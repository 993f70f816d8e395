// Normalized LaTeX → answer value: latex2sympy's reading of sets, intervals, ±, percents and text, the math by the Compute Engine.
import { withEngine } from "./engine.js";
import { evaluate } from "./evaluate.js";
import { I_SYMBOL, parseWithEngine } from "./from-engine.js";
import { parsePlain } from "./plain.js";
import { add, floatFromLiteral, int, neg, percentOf, type MathValue, type Sym } from "./values.js";

/** 1,000 or 12,345.5: a number with thousands separators, not the set {1, 0}. */
const COMMA_NUMBER = /^\s*-?\d{1,3}(,\d{3})+(\.\d+)?\s*$/;

const OPENERS = new Set(["(", "[", "{"]);
const CLOSERS = new Set([")", "]", "}"]);

/** Split at a separator (a string or `\cup`) outside every bracket; `\{` and `\}` count as brackets. */
function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === "\\" && !(depth === 0 && text.startsWith(separator, i) && !/[a-zA-Z]/.test(text[i + separator.length] ?? ""))) {
      // A command's first character is not a delimiter (`\,` is a space), except `\{` `\}` which nest.
      if (text[i + 1] === "{") depth++;
      else if (text[i + 1] === "}") depth--;
      i++;
    } else if (OPENERS.has(ch)) depth++;
    else if (CLOSERS.has(ch)) depth--;
    else if (depth === 0 && text.startsWith(separator, i) && !(separator.startsWith("\\") && /[a-zA-Z]/.test(text[i + separator.length] ?? ""))) {
      parts.push(text.slice(start, i));
      start = i + separator.length;
      i = start - 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** The inside of `open…close` when that pair wraps the whole text (and is not two groups like `(a)(b)`). */
function wrapped(text: string, opens: string[], closes: string[]): { inner: string; open: string; close: string } | null {
  const open = opens.find((o) => text.startsWith(o));
  const close = closes.find((c) => text.endsWith(c));
  if (!open || !close || text.length < open.length + close.length) return null;
  const inner = text.slice(open.length, text.length - close.length);
  let depth = 0;
  for (let i = 0; i < inner.length; i++) {
    const ch = inner[i]!;
    if (ch === "\\" && (inner[i + 1] === "{" || inner[i + 1] === "}")) i++;
    else if (OPENERS.has(ch)) depth++;
    else if (CLOSERS.has(ch) && --depth < 0) return null;
  }
  return depth === 0 ? { inner, open, close } : null;
}

/** \binom{n}{k}: the engine has no LaTeX for it; SymPy evaluates it (and simplifies n(n-1)/2 for k = 2). */
function binomials(latex: string): string {
  return latex.replace(/\\[dt]?binom\s*\{([^{}]*)\}\s*\{([^{}]*)\}/g, (_whole, n: string, k: string) => {
    if (!/^\s*\d+\s*$/.test(k)) return `\\frac{(${n})!}{(${k})!((${n})-(${k}))!}`;
    const bottom = BigInt(k.trim());
    if (/^\s*\d+\s*$/.test(n)) {
      const top = BigInt(n.trim());
      if (bottom > top) return "0";
      let value = 1n;
      for (let i = 0n; i < bottom; i++) value = (value * (top - i)) / (i + 1n);
      return value.toString();
    }
    if (bottom > 20n) return `\\frac{(${n})!}{(${k})!((${n})-(${k}))!}`;
    // A falling factorial over k!, which SymPy's simplify reaches from binomial(n, k).
    let factorial = 1n;
    const factors: string[] = [];
    for (let i = 0n; i < bottom; i++) {
      factors.push(`((${n})-${i})`);
      factorial *= i + 1n;
    }
    return factors.length === 0 ? "1" : `\\frac{${factors.join("")}}{${factorial}}`;
  });
}

/**
 * What the engine should not see as it is: `^\circ` (latex2sympy drops it, the engine converts to
 * radians), `\text{word}` (latex2sympy's symbol `word`, parentheses and spaces removed), a lone `i`
 * (a plain symbol for latex2sympy, √-1 for the engine) and \binom.
 */
function prepare(latex: string): string {
  const text = latex
    .replace(/\^\s*\{\s*\\circ\s*\}|\^\s*\\circ|\\circ/g, "")
    .replace(/\\(?:text|mbox)\s*\{([^{}]*)\}/g, (whole: string, content: string) => {
      const name = content.replace(/[\s()]/g, "");
      return /^[A-Za-z][A-Za-z0-9]*$/.test(name) ? `\\operatorname{${name}}` : whole;
    })
    .replace(/(?<![\\a-zA-Z]|\\operatorname\{[a-zA-Z0-9]*)i(?![a-zA-Z])/g, `\\operatorname{${I_SYMBOL}}`)
    // 6.02e23 is 6.02·e·23 and 1e-7 is 1·e - 7 to latex2sympy (e is Euler's number), not scientific notation.
    // latex2sympy reads x^12 as x**12 (LaTeX and the engine: x^1·2).
    .replace(/\^\s*(\d{2,})/g, "^{$1}")
    .replace(/(\d)e(\d)/g, "$1\\cdot e\\cdot $2")
    .replace(/(\d)e([-+])/g, "$1\\cdot e$2");
  return binomials(text);
}

/** a ± b is the set {a - b, a + b}; x = ± b reads as x = {-b, b}. */
function plusMinus(before: string, after: string): MathValue | null {
  const b = scalar(after);
  if (b?.kind !== "expr") return null;
  const assigned = /^(.*?)=$/.exec(before);
  const a = before === "" || assigned ? null : scalar(before);
  if (before !== "" && !assigned && a?.kind !== "expr") return null;
  const base: Sym = a?.kind === "expr" ? a.expr : int(0);
  const pair: MathValue = {
    kind: "set",
    items: [
      { kind: "expr", expr: add(base, neg(b.expr)) },
      { kind: "expr", expr: add(base, b.expr) },
    ],
  };
  if (!assigned) return pair;
  const lhs = scalar(assigned[1]!);
  return lhs?.kind === "expr" ? { kind: "element", lhs: lhs.expr, of: pair } : null;
}

function scalar(latex: string): MathValue | null {
  const text = latex.trim();
  // latex2sympy has no token for a bare degree sign: such an answer does not parse.
  if (text === "" || text.includes("°")) return null;
  // x% stays the product x·(1/100), as math_verify builds it.
  const percent = /^(.*?)\s*\\%$/.exec(text);
  if (percent) {
    const of = scalar(percent[1]!);
    return of?.kind === "expr" ? { kind: "expr", expr: percentOf(of.expr) } : null;
  }
  const pm = splitTopLevel(text, "\\pm");
  if (pm.length === 2) return plusMinus(pm[0]!.trim(), pm[1]!);
  // A plain decimal is SymPy's Float as written (the engine would make 12.0 the integer 12).
  if (/^-?(\d+\.\d*|\.\d+)$/.test(text)) return { kind: "expr", expr: floatFromLiteral(text.replace(/^(-?)\./, "$10.")) };
  return withEngine((ce) => parseWithEngine(ce, prepare(text)));
}

/**
 * (a, b) or [a, b] as latex2sympy builds it: an interval when a < b; when a > b (or a = b with open
 * ends) the pair; [a, a] is {a} and a half-open [a, a) is empty, as SymPy's Interval makes them.
 */
function interval(start: Extract<MathValue, { kind: "expr" }>, end: Extract<MathValue, { kind: "expr" }>, leftOpen: boolean, rightOpen: boolean): MathValue {
  const order = withEngine((ce) => {
    const [a, b] = [evaluate(ce, start.expr), evaluate(ce, end.expr)];
    return a && b && !a.isNaN() && !b.isNaN() ? a.comparedTo(b) : -1;
  });
  if (order > 0 || (order === 0 && leftOpen && rightOpen)) return { kind: "tuple", items: [start, end] };
  if (order === 0) return { kind: "set", items: leftOpen || rightOpen ? [] : [start] };
  return { kind: "interval", start: start.expr, end: end.expr, leftOpen, rightOpen };
}

function element(latex: string): MathValue | null {
  const text = latex.trim();
  const membership = splitTopLevel(text, "\\in");
  if (membership.length === 2) {
    // x \in S reads as x = S (latex2sympy's interpret_contains_as_eq).
    const [lhs, of] = [scalar(membership[0]!), element(membership[1]!)];
    return lhs?.kind === "expr" && of ? { kind: "element", lhs: lhs.expr, of } : null;
  }
  const union = splitTopLevel(text, "\\cup");
  if (union.length > 1) {
    const items = union.map((part) => element(part));
    return items.every((v): v is MathValue => v !== null) ? { kind: "union", items } : null;
  }
  const braces = wrapped(text, ["\\{"], ["\\}"]);
  if (braces) {
    if (braces.inner.trim() === "") return { kind: "set", items: [] };
    const items = splitTopLevel(braces.inner, ",").map((part) => element(part));
    return items.every((v): v is MathValue => v !== null) ? { kind: "set", items } : null;
  }
  const brackets = wrapped(text, ["(", "["], [")", "]"]);
  if (brackets) {
    const parts = splitTopLevel(brackets.inner, ",");
    if (parts.length === 2) {
      const [start, end] = parts.map((p) => scalar(p));
      if (start?.kind !== "expr" || end?.kind !== "expr") return null;
      return interval(start, end, brackets.open === "(", brackets.close === ")");
    }
    if (parts.length > 2) {
      const items = parts.map((part) => element(part));
      return items.every((v): v is MathValue => v !== null) ? { kind: "tuple", items } : null;
    }
  }
  return scalar(text);
}

/** Parse one normalized LaTeX answer; null where latex2sympy would raise. */
export function parseLatexValue(latex: string): MathValue | null {
  if (COMMA_NUMBER.test(latex)) {
    const digits = latex.replace(/[,\s]/g, "");
    return { kind: "expr", expr: digits.includes(".") ? floatFromLiteral(digits) : int(BigInt(digits)) };
  }
  const parts = splitTopLevel(latex, ",");
  if (parts.length > 1) {
    // "1, 2, 3" is a set (latex2sympy's set_elements), in the order written.
    const items = parts.map((part) => element(part));
    return items.every((v): v is MathValue => v !== null) ? { kind: "set", items } : null;
  }
  return element(latex);
}

/** A plain-text expression such as `3 * 4` or `7/5`, read as SymPy's parse_expr(evaluate=False) would. */
export function parsePlainExpression(text: string): Sym | null {
  return parsePlain(text);
}

// math_verify 0.8.0's parse(): find answer candidates by priority, parse the first that parses, keep the first text found.
import { normalizeLatex } from "./normalize.js";
import { GOLD_PATTERNS, PREDICTION_PATTERNS, type Pattern } from "./patterns.js";
import { parseLatexValue, parsePlainExpression } from "./latex.js";
import { floatFromLiteral, percentOf, setOf, type MathValue, type Sym } from "./values.js";

/**
 * What parse() returns: the parsed value (when some candidate parsed) and then the text of the first
 * candidate tried (math_verify's "first_match" fallback), each possibly absent.
 */
export interface Extraction {
  value: MathValue | null;
  text: string | null;
}

interface Candidate {
  match: RegExpMatchArray;
  start: number;
  end: number;
  target: Pattern["target"];
}

/** A number found in plain text: thousands separators and leading zeros dropped, as math_verify does. */
function numberFrom(groups: Record<string, string | undefined>): [MathValue, string] | null {
  const first = (prefix: string) => Object.entries(groups).find(([name, value]) => name.startsWith(prefix) && value)?.[1] ?? "";
  let integer = first("integer");
  let decimal = first("decimal");
  if (!integer && !decimal) return null;
  integer = integer.replace(/[, ]/g, "").replace(/^0+/, "");
  if (integer === "") integer = "0";
  decimal = decimal.replace(",", ".");
  const text = `${integer}${decimal}`;
  let sym: Sym = decimal ? floatFromLiteral(text) : { t: "int", v: BigInt(text) };
  if (groups.percent) sym = percentOf(sym);
  return [{ kind: "expr", expr: sym }, text];
}

function extractExpr(groups: Record<string, string | undefined>): [MathValue | null, string] {
  const number = numberFrom(groups);
  if (number) return number;
  const expr = groups.expr ?? "";
  if (!expr) return [null, ""];
  const value = parsePlainExpression(expr.replaceAll("\n", " ").replaceAll("^", "**"));
  return [value ? { kind: "expr", expr: value } : null, expr];
}

/** Parse the normalized LaTeX; failing that, only the part after the last `=` of a chain `a=b=c`. */
function parseLatex(latex: string): MathValue | null {
  const value = parseLatexValue(latex);
  if (value || latex.includes(",") || latex.includes(";")) return value;
  const parts = latex.split(/(?<!\\|<|!|>)=/);
  return parts.length > 2 ? parseLatexValue(parts[parts.length - 1]!) : null;
}

function extractLatex(groups: Record<string, string | undefined>): [MathValue | null, string] {
  const found: [string, string][] = [];
  const first = Object.entries(groups).find(([name, value]) => name.startsWith("first_latex") && value);
  if (first) found.push([first[1]!, first[0]]);
  for (let i = 1; i <= 5; i++) {
    const next = Object.entries(groups).find(([name, value]) => name.startsWith(`next${i}_latex`) && value);
    if (next) found.push([next[1]!, next[0]]);
  }
  if (found.length === 0) return [null, ""];

  const values: (MathValue | null)[] = [];
  const texts: string[] = [];
  for (const [latex, name] of found) {
    const [prefix, group] = name.split("_");
    const normalized = normalizeLatex(latex, group === "latexBoxed" ? "last" : "all");
    texts.push(normalized);
    let value = parseLatex(normalized);
    if (value && groups[`${prefix}_percent`]) value = value.kind === "expr" ? { kind: "expr", expr: percentOf(value.expr) } : null;
    values.push(value);
  }
  // "1, 2 and 3" across several environments is one set, when every part parsed.
  if (values.length > 1 && values.every((v): v is MathValue => v !== null)) {
    return [setOf(values.flatMap((v) => (v.kind === "set" ? v.items : [v]))), texts.join(" and ")];
  }
  return [values[0]!, texts[0]!];
}

function candidatesOf(text: string, group: Pattern[]): Candidate[] {
  const candidates: Candidate[] = [];
  for (const pattern of group) {
    for (const match of text.matchAll(pattern.regex)) {
      candidates.push({ match, start: match.index, end: match.index + match[0].length, target: pattern.target });
    }
  }
  // Rightmost end first, then leftmost start; ties keep pattern order (a stable sort, as Python's).
  return candidates.sort((a, b) => b.end - a.end || a.start - b.start);
}

function extract(text: string, patterns: Pattern[]): Extraction {
  const fallbacks: string[] = [];
  let value: MathValue | null = null;
  for (let i = 0; i < patterns.length && value === null; ) {
    const priority = patterns[i]!.priority;
    const group: Pattern[] = [];
    for (; i < patterns.length && patterns[i]!.priority === priority; i++) group.push(patterns[i]!);
    for (const candidate of candidatesOf(text, group)) {
      const groups = candidate.match.groups ?? {};
      const [parsed, fallback] = candidate.target === "expr" ? extractExpr(groups) : extractLatex(groups);
      if (fallback) fallbacks.push(fallback);
      if (parsed) {
        value = parsed;
        break;
      }
    }
  }
  return { value, text: fallbacks[0] ?? null };
}

/** A model's answer: expressions and numbers in text, or LaTeX (boxed, $…$, \[…\] …), the best-placed one. */
export function extractPrediction(text: string): Extraction {
  return extract(text, PREDICTION_PATTERNS);
}

/** An expected answer, as NeMo Gym hands it over: wrapped in \boxed{} after its outer \(…\) or $…$ are stripped. */
export function extractGold(expected: string): Extraction {
  return extract(`\\boxed{${stripMathDelimiters(expected)}}`, GOLD_PATTERNS);
}

/** NeMo Gym's _strip_math_delimiters: `\(x\)` or `$x$` → `x`, so the boxed gold parses. */
export function stripMathDelimiters(answer: string): string {
  let s = answer.trim();
  if (s.startsWith("\\(") && s.endsWith("\\)")) s = s.slice(2, -2).trim();
  if (s.startsWith("$") && s.endsWith("$") && s.length > 1) s = s.slice(1, -1).trim();
  return s;
}

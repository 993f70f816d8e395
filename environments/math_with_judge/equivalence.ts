// math_verify 0.8.0's verify(): is the predicted answer the gold one? Equations, sets, intervals, symbols, then numbers.
import { numericEqual, symbolicEqual } from "./compare.js";
import { withEngine } from "./engine.js";
import { evaluate } from "./evaluate.js";
import { sortByValue } from "./sympy-order.js";
import { sympyString } from "./sympy-str.js";
import { add, neg, type Interval, type MathValue, type Relation, type RelationOp, type Sym } from "./values.js";

/** What parse() yields: parsed values and, as a fallback, the text found. */
export type Extracted = MathValue | string;

const expr = (x: Sym): MathValue => ({ kind: "expr", expr: x });
type Relational = Extract<MathValue, { kind: "relation" | "and" | "element" }>;
const isRelation = (v: MathValue): v is Relational => v.kind === "relation" || v.kind === "and" || v.kind === "element";
const isEquation = (v: MathValue) =>
  (v.kind === "relation" && v.op === "==") || v.kind === "element" || (v.kind === "and" && v.items.every((r) => r.op === "=="));
/** The right-hand side of the last link, and the left-hand side of the first. */
const lastRhs = (v: Relational): MathValue => (v.kind === "element" ? v.of : expr((v.kind === "and" ? v.items[v.items.length - 1]! : v).rhs));
const firstLhs = (v: Relational): Sym => (v.kind === "and" ? v.items[0]!.lhs : v.lhs);
/** SymPy's Set (not Tuple). */
const isSet = (v: MathValue) => v.kind === "set" || v.kind === "interval" || v.kind === "union";
const isCollection = (v: MathValue) => isSet(v) || v.kind === "tuple";

/** latex2sympy's is_expr_of_only_symbols: built from symbols alone (x, a+b, A/S). */
function onlySymbols(x: Sym): boolean {
  if (x.t === "sym") return true;
  if (x.t === "add" || x.t === "mul" || x.t === "fn") return x.args.every(onlySymbols);
  if (x.t === "pow") return onlySymbols(x.base) && onlySymbols(x.exp);
  return false;
}

/** x = 1 (an assignment), as opposed to an equation such as 2x + z = 1. */
function isAssignment(v: MathValue): boolean {
  if (v.kind === "relation") return v.op === "==" && onlySymbols(v.lhs);
  if (v.kind === "element") return onlySymbols(v.lhs);
  return v.kind === "and" && v.items.every((r) => r.op === "==") && onlySymbols(v.items[0]!.lhs);
}

const key = (v: MathValue): string => {
  if (v.kind === "set") return `set{${[...new Set(v.items.map(key))].sort().join(";")}}`;
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? `${x}n` : x));
};

/** SymPy's `==`: the same tree (sets regardless of order). */
function same(a: MathValue, b: MathValue): boolean {
  return key(a) === key(b);
}

const INVERSE: Partial<Record<RelationOp, RelationOp>> = { "<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==" };

function compareRelational(gold: MathValue, pred: MathValue): boolean {
  if (gold.kind === "and" && pred.kind === "and") {
    return gold.items.length === pred.items.length && gold.items.every((g, i) => compareRelational(g, pred.items[i]!));
  }
  if (gold.kind !== "relation" || pred.kind !== "relation") return false;
  const goldSide = expr(add(gold.lhs, neg(gold.rhs)));
  if (gold.op === pred.op && valueEqual(goldSide, expr(add(pred.lhs, neg(pred.rhs))))) return true;
  // a <= b is b >= a. (≠ has no inverse in math_verify: the lookup fails and the comparison is false.)
  return INVERSE[gold.op] === pred.op && valueEqual(goldSide, expr(add(pred.rhs, neg(pred.lhs))));
}

const isInfinite = (x: Sym) => x.t === "const" && (x.name === "oo" || x.name === "-oo");

/** SymPy opens an interval at an infinite end. */
function normalized(i: Interval): Interval {
  return { ...i, leftOpen: i.leftOpen || isInfinite(i.start), rightOpen: i.rightOpen || isInfinite(i.end) };
}

function compareInterval(a: Interval, b: Interval): boolean {
  const [x, y] = [normalized(a), normalized(b)];
  return x.leftOpen === y.leftOpen && x.rightOpen === y.rightOpen && valueEqual(expr(x.start), expr(y.start)) && valueEqual(expr(x.end), expr(y.end));
}

type Finite = Extract<MathValue, { kind: "set" | "tuple" }>;

function distinct(v: Finite): MathValue[] {
  if (v.kind === "tuple") return v.items;
  const seen = new Set<string>();
  return v.items.filter((item) => !seen.has(key(item)) && seen.add(key(item)));
}

/** Element-wise comparison; sets are paired in value order, a predicted set against a gold tuple as written. */
function deepCompare(gold: Finite, pred: Finite): boolean {
  const [g, p] = [distinct(gold), distinct(pred)];
  if (g.length !== p.length) return false;
  let [goldItems, predItems] = [g, p];
  if (gold.kind === "set") [goldItems, predItems] = withEngine((ce) => [sortByValue(ce, g), sortByValue(ce, p)]);
  else if (pred.kind === "set" && gold.kind !== "tuple") predItems = withEngine((ce) => sortByValue(ce, p));
  return goldItems.every((item, i) => valueEqual(item, predItems[i]!));
}

function compareSets(gold: MathValue, pred: MathValue): boolean {
  const a: MathValue = isCollection(gold) ? gold : { kind: "set", items: [gold] };
  const b: MathValue = isCollection(pred) ? pred : { kind: "set", items: [pred] };
  if (a.kind === "interval" && b.kind === "interval") return compareInterval(a, b);
  if (same(a, b)) return true;
  if ((a.kind === "set" || a.kind === "tuple") && (b.kind === "set" || b.kind === "tuple")) return deepCompare(a, b);
  // (1, 2) reads as an open interval; against "1, 2" it is the pair of its ends.
  const ends = (i: Interval): Finite => ({ kind: "tuple", items: [expr(i.start), expr(i.end)] });
  if (a.kind === "interval" && (b.kind === "set" || b.kind === "tuple")) {
    const i = normalized(a);
    return i.leftOpen && i.rightOpen && distinct(b).length === 2 && deepCompare(ends(i), b);
  }
  if (b.kind === "interval" && (a.kind === "set" || a.kind === "tuple")) {
    const i = normalized(b);
    return i.leftOpen && i.rightOpen && distinct(a).length === 2 && deepCompare(a, ends(i));
  }
  // Unions of intervals and sets are equal when their parts are (SymPy: an empty symmetric difference).
  if (a.kind === "union" && b.kind === "union" && a.items.length === b.items.length) {
    const start = (v: MathValue) => withEngine((ce) => (v.kind === "interval" ? (evaluate(ce, v.start)?.toNumber() ?? 0) : 0));
    const [x, y] = [[...a.items].sort((m, n) => start(m) - start(n)), [...b.items].sort((m, n) => start(m) - start(n))];
    return x.every((item, i) => compareSets(item, y[i]!));
  }
  return false;
}

function symbolName(v: MathValue): string | null {
  return v.kind === "expr" && v.expr.t === "sym" ? v.expr.name : null;
}

/** $\text{answer}$ against $answer$ (a product of letters), and e against Euler's number. */
function compareSymbols(gold: MathValue, pred: MathValue): boolean {
  const isE = (v: MathValue) => v.kind === "expr" && v.expr.t === "const" && v.expr.name === "E";
  const [g, p] = [symbolName(gold), symbolName(pred)];
  if ((g?.toLowerCase() === "e" && isE(pred)) || (p?.toLowerCase() === "e" && isE(gold))) return true;
  const letters = (v: MathValue): string | null => {
    if (v.kind !== "expr" || v.expr.t !== "mul") return null;
    if (v.written !== undefined) return v.written;
    const parts = v.expr.args.map((a) => (a.t === "sym" ? a.name : a.t === "const" && a.name === "E" ? "e" : null));
    return parts.every((x) => x !== null) ? parts.join("") : null;
  };
  if (g !== null && letters(pred) !== null) return g.toLowerCase() === letters(pred)!.toLowerCase();
  if (p !== null && letters(gold) !== null) return p.toLowerCase() === letters(gold)!.toLowerCase();
  if (g !== null && p !== null) return (g.length > 1 ? g.toLowerCase() : g) === (p.length > 1 ? p.toLowerCase() : p);
  return sympyString(gold) === sympyString(pred);
}

/** 1 < x < 2 as the interval (1, 2), for comparison with a predicted set (relation.as_set()). */
function asSet(v: Extract<MathValue, { kind: "relation" | "and" }>): MathValue | null {
  const intervals = (v.kind === "and" ? v.items : [v]).map(relationInterval);
  if (intervals.some((i) => i === null)) return null;
  if (intervals.length === 1) return intervals[0]!;
  if (intervals.length !== 2) return null;
  const [a, b] = intervals as [Interval, Interval];
  const finiteStart = isInfinite(a.start) ? b : a;
  const finiteEnd = isInfinite(a.end) ? b : a;
  return { kind: "interval", start: finiteStart.start, leftOpen: finiteStart.leftOpen, end: finiteEnd.end, rightOpen: finiteEnd.rightOpen };
}

function relationInterval(r: Relation): Interval | null {
  const oo: Sym = { t: "const", name: "oo" };
  const minusOo: Sym = { t: "const", name: "-oo" };
  const flip: Partial<Record<RelationOp, RelationOp>> = { "<": ">", ">": "<", "<=": ">=", ">=": "<=" };
  const [op, bound] = r.lhs.t === "sym" ? [r.op, r.rhs] : r.rhs.t === "sym" ? [flip[r.op], r.lhs] : [undefined, r.rhs];
  if (bound.t === "sym" || !op) return null;
  if (op === "<" || op === "<=") return { kind: "interval", start: minusOo, end: bound, leftOpen: true, rightOpen: op === "<" };
  if (op === ">" || op === ">=") return { kind: "interval", start: bound, end: oo, leftOpen: op === ">", rightOpen: true };
  return null;
}

function assignment(lhs: Sym, rhs: MathValue): MathValue {
  return rhs.kind === "expr" ? { kind: "relation", op: "==", lhs, rhs: rhs.expr } : { kind: "element", lhs, of: rhs };
}

/** sympy_expr_eq(gold, pred) in strict mode. */
export function valueEqual(goldIn: MathValue, predIn: MathValue): boolean {
  let [gold, pred] = [goldIn, predIn];
  const goldAssignment = isAssignment(gold);
  const predEquation = isEquation(pred);
  const goldEquation = isEquation(gold);
  // A chain of assignments x = y = 1 keeps its ends: x = 1.
  if (goldAssignment && isRelation(gold)) gold = assignment(firstLhs(gold), lastRhs(gold));
  if (isAssignment(pred) && isRelation(pred)) pred = assignment(firstLhs(pred), lastRhs(pred));
  // Follow the gold's form: "x = 1" against 1 compares 1 with 1.
  if (predEquation && !goldEquation && isRelation(pred)) pred = lastRhs(pred);
  else if (goldAssignment && !predEquation && isRelation(gold)) gold = lastRhs(gold);
  if ((gold.kind === "relation" || gold.kind === "and") && isSet(pred)) gold = asSet(gold) ?? gold;

  // SymPy refuses to compare nan or zoo.
  if (gold.kind === "expr" && gold.expr.t === "const" && (gold.expr.name === "nan" || gold.expr.name === "zoo")) return false;
  if (same(gold, pred)) return true;
  if (isRelation(gold) && isRelation(pred)) return compareRelational(gold, pred);
  if (isCollection(gold) || isCollection(pred)) return compareSets(gold, pred);
  if (symbolName(gold) !== null || symbolName(pred) !== null) return compareSymbols(gold, pred);
  if (gold.kind === "expr" && pred.kind === "expr") return numericEqual(gold.expr, pred.expr) || symbolicEqual(gold.expr, pred.expr);
  return false;
}

/** verify(golds, preds): any pair equal; values compare mathematically, fallback texts as trimmed strings. */
export function verifyExtractions(golds: Extracted[], preds: Extracted[]): boolean {
  return golds.some((g) =>
    preds.some((p) => {
      if (typeof g === "string" || typeof p === "string") {
        return typeof g === "string" && typeof p === "string" && g.trim() !== "" && g.trim() === p.trim();
      }
      try {
        return valueEqual(g, p);
      } catch {
        // math_verify counts any failure inside one comparison as "not equal" and goes on.
        return false;
      }
    }),
  );
}

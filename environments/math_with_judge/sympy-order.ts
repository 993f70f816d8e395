// The order SymPy prints terms and factors in (as_ordered_terms, as_ordered_factors, default_sort_key), for the cases answers hit.
import type { ComputeEngine } from "@cortex-js/compute-engine";
import { evaluate } from "./evaluate.js";
import { freeSymbols, isNumber, type MathValue, type Sym } from "./values.js";

type Key = (string | number)[];

function compareKeys(a: Key, b: Key): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const [x, y] = [a[i]!, b[i]!];
    if (x === y) continue;
    if (typeof x === "number" && typeof y === "number") return x - y;
    return String(x) < String(y) ? -1 : 1;
  }
  return a.length - b.length;
}

/** SymPy's Function.class_key ranks these first, in this order. */
const FUNCTION_RANK = ["exp", "log", "sin", "cos", "tan", "cot", "sinh", "cosh", "tanh", "coth"];

function classKey(x: Sym): Key {
  switch (x.t) {
    case "int":
    case "rat":
    case "float":
      return [1, 0, "Number"];
    case "sym":
      return [2, 0, "Symbol"];
    case "const":
      return [2, 0, { pi: "Pi", E: "Exp1", I: "ImaginaryUnit", oo: "Infinity", "-oo": "NegativeInfinity", zoo: "ComplexInfinity", nan: "NaN" }[x.name]];
    case "fn": {
      const rank = FUNCTION_RANK.indexOf(x.name);
      return [4, rank < 0 ? FUNCTION_RANK.length : rank, x.name];
    }
    case "add":
      return [5, 0, "Add"];
    case "mul":
    case "pct":
      return [5, 0, "Mul"];
    case "pow":
      return [5, 0, "Pow"];
  }
}

function numericValue(x: Sym): number {
  if (x.t === "int") return Number(x.v);
  if (x.t === "rat") return Number(x.p) / Number(x.q);
  if (x.t === "float") return Number(x.v);
  return Number.NaN;
}

const text = (x: Sym): string => JSON.stringify(x, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v));

/** default_sort_key, approximately: numbers first by value; then class, the base's text, the exponent. */
function sortKey(x: Sym): Key {
  if (isNumber(x)) return [1, 0, "Number", 0, numericValue(x)];
  const [base, exp] = x.t === "pow" ? [x.base, x.exp] : [x, null];
  const expKey: Key = exp === null ? [1] : isNumber(exp) ? [numericValue(exp)] : [Number.POSITIVE_INFINITY, text(exp)];
  const atom = base.t === "int" ? base.v.toString() : base.t === "sym" || base.t === "const" ? base.name : text(base);
  return [...classKey(base), 1, atom, ...expKey];
}

/** as_ordered_factors: numbers first, then symbols by name, functions, then compound factors. */
export function orderedFactors(args: Sym[]): Sym[] {
  return [...args].sort((a, b) => compareKeys(sortKey(a), sortKey(b)));
}

function isNumberSymbol(x: Sym): boolean {
  return isNumber(x) || (x.t === "const" && (x.name === "pi" || x.name === "E"));
}

/** A term as as_terms() splits it: its numeric coefficient (a float) and its powers of generators. */
function splitTerm(ce: ComputeEngine, term: Sym): { coefficient: number; powers: Map<string, number> } {
  const factors = term.t === "mul" ? term.args : [term];
  let coefficient = 1;
  const powers = new Map<string, number>();
  for (const factor of factors) {
    if (freeSymbols(factor).size === 0) {
      const value = evaluate(ce, factor);
      if (value !== null && !value.isNaN()) {
        coefficient *= value.toNumber();
        continue;
      }
    }
    const [base, exp] = factor.t === "pow" && isNumber(factor.exp) ? [factor.base, numericValue(factor.exp)] : [factor, 1];
    const key = JSON.stringify(sortKey(base));
    powers.set(key, (powers.get(key) ?? 0) + exp);
  }
  return { coefficient, powers };
}

/** as_ordered_terms: higher monomials (lexicographically over sorted generators) first, then by coefficient. */
export function orderedTerms(ce: ComputeEngine, args: Sym[]): Sym[] {
  // SymPy's special case: a positive number plus a negative multiple prints number first (5 - sqrt(3)).
  const numbersFirst = [...args].sort((a, b) => Number(!isNumberSymbol(a)) - Number(!isNumberSymbol(b)));
  if (numbersFirst.length === 2 && isNumberSymbol(numbersFirst[0]!) && numbersFirst[1]!.t === "mul") {
    const [n, m] = numbersFirst as [Sym, Extract<Sym, { t: "mul" }>];
    const factors = [...m.args].sort((a, b) => Number(!isNumberSymbol(a)) - Number(!isNumberSymbol(b)));
    if (factors.length === 2 && isNumber(factors[0]!) && numericValue(factors[0]!) < 0 && (n.t === "const" || numericValue(n) > 0)) {
      return numbersFirst;
    }
  }
  const split = args.map((term) => ({ term, ...splitTerm(ce, term) }));
  const generators = [...new Set(split.flatMap((s) => [...s.powers.keys()]))].sort((a, b) => compareKeys(JSON.parse(a) as Key, JSON.parse(b) as Key));
  const monomial = (powers: Map<string, number>) => generators.map((g) => powers.get(g) ?? 0);
  return split
    .map((s) => ({ ...s, monomial: monomial(s.powers) }))
    .sort((a, b) => {
      for (let i = 0; i < generators.length; i++) {
        if (a.monomial[i] !== b.monomial[i]) return b.monomial[i]! - a.monomial[i]!;
      }
      return a.coefficient - b.coefficient;
    })
    .map((s) => s.term);
}

/** Elements of a printed FiniteSet (default_sort_key): numbers by value, then the rest by class and name. */
export function sortValues(values: MathValue[], printed: (v: MathValue) => string): MathValue[] {
  const key = (v: MathValue): Key => {
    if (v.kind !== "expr") return [9, v.kind, printed(v)];
    return isNumber(v.expr) ? [1, numericValue(v.expr)] : [2, ...sortKey(v.expr)];
  };
  return [...values].sort((a, b) => compareKeys(key(a), key(b)));
}

/** The order math_verify pairs set elements in: by numeric value where there is one (sort_key of evalf()). */
export function sortByValue(ce: ComputeEngine, values: MathValue[]): MathValue[] {
  const key = (v: MathValue): Key => {
    if (v.kind !== "expr") return [9, v.kind];
    const value = freeSymbols(v.expr).size === 0 ? evaluate(ce, v.expr) : null;
    return value?.isFinite() ? [1, value.toNumber()] : [2, ...sortKey(v.expr)];
  };
  return [...values].sort((a, b) => compareKeys(key(a), key(b)));
}

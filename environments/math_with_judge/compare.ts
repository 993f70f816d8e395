// Numeric and symbolic equality of two expressions, following math_verify's sympy_numeric_eq and sympy_symbolic_eq.
import type { ComputeEngine } from "@cortex-js/compute-engine";
import { PRECISION, withEngine, type Decimal } from "./engine.js";
import { evaluate, type Assignment } from "./evaluate.js";
import { freeSymbols, isNumber, type Sym } from "./values.js";

/** math_verify's float_rounding: floats are compared after rounding to 6 decimal places. */
const FLOAT_ROUNDING = 6;
/** math_verify's evalf(n=15): two values within 15 significant digits are one. */
const NUMERIC_DIGITS = 15;
/** Closer than this (relative), two exactly computed constants are taken as equal (SymPy's simplify would prove it). */
const EXACT_DIGITS = PRECISION - 10;

/** A number, or x% of a number (is_atomic_or_pct_atomic). */
function atomicNumber(x: Sym, floatOnly: boolean): boolean {
  const inner = x.t === "pct" ? x.of : x;
  return floatOnly ? inner.t === "float" : isNumber(inner);
}

function exactValue(x: Sym): [bigint, bigint] | null {
  if (x.t === "int") return [x.v, 1n];
  if (x.t === "rat") return [x.p, x.q];
  if (x.t === "pct") {
    const inner = exactValue(x.of);
    return inner ? [inner[0], inner[1] * 100n] : null;
  }
  return null;
}

/**
 * Equal to `digits` significant digits, measured against the largest term either side adds up: a sum
 * that cancels to 0 (x^800 terms) leaves a residue far above 0 but far below its terms.
 */
function close(a: Decimal, b: Decimal, digits: number, scale?: Decimal): boolean {
  if (a.isNaN() || b.isNaN()) return false;
  if (!a.isFinite() || !b.isFinite()) return a.equals(b);
  let size = a.abs().greaterThan(b.abs()) ? a.abs() : b.abs();
  if (scale?.isFinite() && scale.greaterThan(size)) size = scale;
  if (size.isZero()) return true;
  return a
    .minus(b)
    .abs()
    .lessThanOrEqualTo(size.times(`1e-${digits}`));
}

/** The largest absolute value among the terms of the sums in `x` (the scale its cancellation happens at). */
function termScale(ce: ComputeEngine, x: Sym, at: Assignment): Decimal {
  let scale = ce.bignum(0);
  const visit = (y: Sym) => {
    const value = evaluate(ce, y, at);
    if (value?.isFinite() && value.abs().greaterThan(scale)) scale = value.abs();
    if (y.t === "add") y.args.forEach(visit);
    else if (y.t === "mul") y.args.filter((f) => f.t === "add").forEach(visit);
  };
  visit(x);
  return scale;
}

/** sympy_numeric_eq: rounding when a float is involved, exact when an exact number is, evalf(a - b) == 0 otherwise. */
export function numericEqual(gold: Sym, pred: Sym): boolean {
  if (atomicNumber(gold, false) || atomicNumber(pred, false)) {
    if (atomicNumber(gold, true) || atomicNumber(pred, true)) {
      // SymPy rounds an Integer to itself and a Float to a Float, and Integer(12) != Float(12.0):
      // an integer against a float is left to the symbolic test (equal only when exactly equal).
      if (gold.t === "int" || pred.t === "int") return false;
      return withEngine((ce) => {
        const [a, b] = [evaluate(ce, gold), evaluate(ce, pred)];
        if (!a || !b || !a.isFinite() || !b.isFinite()) return false;
        return a.toDecimalPlaces(FLOAT_ROUNDING, 6).equals(b.toDecimalPlaces(FLOAT_ROUNDING, 6));
      });
    }
    const [a, b] = [exactValue(gold), exactValue(pred)];
    return a !== null && b !== null && a[0] * b[1] === b[0] * a[1];
  }
  if (freeSymbols(gold).size > 0 || freeSymbols(pred).size > 0) return false;
  return withEngine((ce) => {
    const [a, b] = [evaluate(ce, gold), evaluate(ce, pred)];
    return a !== null && b !== null && close(a, b, NUMERIC_DIGITS, scaleOf(ce, gold, pred));
  });
}

function scaleOf(ce: ComputeEngine, gold: Sym, pred: Sym, at: Assignment = new Map()): Decimal {
  const [g, p] = [termScale(ce, gold, at), termScale(ce, pred, at)];
  return g.greaterThan(p) ? g : p;
}

/** Points for identity testing: fixed, distinct per symbol, of both signs. */
const SAMPLES = [0.5377, -1.2339, 1.8913, 2.6312, -0.3719];

function sampledEqual(ce: ComputeEngine, gold: Sym, pred: Sym, symbols: string[]): boolean {
  let compared = 0;
  for (let s = 0; s < SAMPLES.length; s++) {
    const at = new Map(symbols.map((name, i) => [name, ce.bignum(SAMPLES[(s + i) % SAMPLES.length]! + i * 0.1173)]));
    const [a, b] = [evaluate(ce, gold, at), evaluate(ce, pred, at)];
    if (!a || !b) return false;
    // Outside both domains (a square root of a negative, say) the point says nothing.
    if (a.isNaN() && b.isNaN()) continue;
    if (!close(a, b, EXACT_DIGITS, scaleOf(ce, gold, pred, at))) return false;
    compared++;
  }
  return compared >= 2;
}

/**
 * sympy_symbolic_eq, simplify(a - b) == 0. SymPy proves identities; here constants are compared at
 * 50 digits and expressions in symbols at sample points, which agrees wherever SymPy's simplify
 * succeeds (the engine's own simplify() costs seconds on first use and misses many identities).
 */
export function symbolicEqual(gold: Sym, pred: Sym): boolean {
  return withEngine((ce) => {
    const symbols = [...new Set([...freeSymbols(gold), ...freeSymbols(pred)])].sort();
    if (symbols.length > 0) return sampledEqual(ce, gold, pred, symbols);
    const [a, b] = [evaluate(ce, gold), evaluate(ce, pred)];
    return a !== null && b !== null && close(a, b, EXACT_DIGITS, scaleOf(ce, gold, pred));
  });
}

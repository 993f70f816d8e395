// Real-valued evaluation of an answer with the engine's 50-digit bignums (its own N() under- and overflows: 2^-2017 is 0 there).
import type { ComputeEngine } from "@cortex-js/compute-engine";
import type { Decimal } from "./engine.js";
import type { Sym } from "./values.js";

/** Values for free symbols (random points when testing an identity). */
export type Assignment = ReadonlyMap<string, Decimal>;

class NotReal extends Error {}

function factorial(ce: ComputeEngine, n: Decimal): Decimal {
  if (!n.isInteger() || n.isNegative() || n.greaterThan(10_000)) throw new NotReal("factorial");
  let result = ce.bignum(1);
  for (let i = 2; i <= n.toNumber(); i++) result = result.times(i);
  return result;
}

function apply(ce: ComputeEngine, name: string, args: Decimal[]): Decimal {
  const [x, y] = args as [Decimal, Decimal | undefined];
  const one = ce.bignum(1);
  switch (name) {
    case "sin":
      return x.sin();
    case "cos":
      return x.cos();
    case "tan":
      return x.tan();
    case "cot":
      return one.div(x.tan());
    case "sec":
      return one.div(x.cos());
    case "csc":
      return one.div(x.sin());
    case "asin":
      return x.asin();
    case "acos":
      return x.acos();
    case "atan":
      return x.atan();
    case "acot":
      return one.div(x).atan();
    case "sinh":
      return x.sinh();
    case "cosh":
      return x.cosh();
    case "tanh":
      return x.tanh();
    case "asinh":
      return x.asinh();
    case "acosh":
      return x.acosh();
    case "atanh":
      return x.atanh();
    case "exp":
      return x.exp();
    case "log":
      return y === undefined ? x.ln() : x.ln().div(y.ln());
    case "Abs":
      return x.abs();
    case "factorial":
      return factorial(ce, x);
    case "floor":
      return x.floor();
    case "ceiling":
      return x.ceil();
    case "Max":
      return args.reduce((a, b) => (a.greaterThan(b) ? a : b));
    case "Min":
      return args.reduce((a, b) => (a.lessThan(b) ? a : b));
    default:
      throw new NotReal(name);
  }
}

function power(ce: ComputeEngine, base: Sym, exp: Sym, at: Assignment): Decimal {
  const b = value(ce, base, at);
  // A negative base to a fractional power is complex in SymPy ((-8)**(1/3) is 1 + 1.73i): not ours to compare.
  if (exp.t === "rat") {
    if (b.isNegative()) throw new NotReal("complex root");
    if (exp.q === 2n) return b.sqrt().pow(ce.bignum(exp.p.toString()));
  }
  const e = value(ce, exp, at);
  if (b.isNegative() && !e.isInteger()) throw new NotReal("complex power");
  return b.pow(e);
}

function value(ce: ComputeEngine, x: Sym, at: Assignment): Decimal {
  switch (x.t) {
    case "int":
      return ce.bignum(x.v.toString());
    case "rat":
      return ce.bignum(x.p.toString()).div(ce.bignum(x.q.toString()));
    case "float":
      return ce.bignum(x.v);
    case "pct":
      return value(ce, x.of, at).div(100);
    case "const":
      switch (x.name) {
        case "pi":
          return ce.bignum(-1).acos();
        case "E":
          return ce.bignum(1).exp();
        case "oo":
          return ce.bignum(Infinity);
        case "-oo":
          return ce.bignum(-Infinity);
        case "zoo":
        case "nan":
          return ce.bignum(NaN);
        case "I":
          throw new NotReal("I");
      }
      break;
    case "sym": {
      const v = at.get(x.name);
      if (!v) throw new NotReal(`free symbol ${x.name}`);
      return v;
    }
    case "add":
      return x.args.reduce((sum, a) => sum.plus(value(ce, a, at)), ce.bignum(0));
    case "mul":
      return x.args.reduce((product, a) => product.times(value(ce, a, at)), ce.bignum(1));
    case "pow":
      return power(ce, x.base, x.exp, at);
    case "fn":
      return apply(
        ce,
        x.name,
        x.args.map((a) => value(ce, a, at)),
      );
  }
  throw new NotReal("unknown");
}

/** The real value of `x` (NaN for undefined values like 0/0), or null when it is complex, symbolic or unknown. */
export function evaluate(ce: ComputeEngine, x: Sym, at: Assignment = new Map()): Decimal | null {
  try {
    return value(ce, x, at);
  } catch (error) {
    if (error instanceof NotReal) return null;
    throw error;
  }
}

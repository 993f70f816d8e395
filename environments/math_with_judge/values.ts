// The parsed answer: a SymPy-shaped tree (so answers compare and print as math_verify's SymPy objects do).

/** A scalar expression, the shape SymPy gives it after evaluation. */
export type Sym =
  | { t: "int"; v: bigint }
  /** A reduced fraction, q > 1. */
  | { t: "rat"; p: bigint; q: bigint }
  /** A decimal literal, kept as written; `dps` is SymPy's printing precision (at least 15 digits). */
  | { t: "float"; v: string; dps: number }
  | { t: "const"; name: Constant }
  | { t: "sym"; name: string }
  /** `raw`: built unevaluated (parse_expr(evaluate=False)), so printed in the order written. */
  | { t: "add"; args: Sym[]; raw?: true }
  | { t: "mul"; args: Sym[]; raw?: true }
  | { t: "pow"; base: Sym; exp: Sym }
  | { t: "fn"; name: string; args: Sym[] }
  /** `x%`, which math_verify keeps as the unevaluated product x·(1/100). */
  | { t: "pct"; of: Sym };

export type Constant = "pi" | "E" | "I" | "oo" | "-oo" | "zoo" | "nan";

export type RelationOp = "==" | "!=" | "<" | "<=" | ">" | ">=";

export interface Relation {
  kind: "relation";
  op: RelationOp;
  lhs: Sym;
  rhs: Sym;
}

export interface Interval {
  kind: "interval";
  start: Sym;
  end: Sym;
  leftOpen: boolean;
  rightOpen: boolean;
}

/** A whole answer: an expression, or the structures math_verify compares specially. */
export type MathValue =
  /** `written`: for a product of letters (`True`, `abc`), the letters in the order written. */
  | { kind: "expr"; expr: Sym; written?: string }
  /** Elements in the order written (latex2sympy's FiniteSet keeps them); compared as a set. */
  | { kind: "set"; items: MathValue[] }
  | { kind: "tuple"; items: MathValue[] }
  | Interval
  | { kind: "union"; items: MathValue[] }
  | Relation
  /** A chain such as 1 < x < 2. */
  | { kind: "and"; items: Relation[] }
  /** x \in [1, 2], which latex2sympy reads as the equation x = [1, 2]. */
  | { kind: "element"; lhs: Sym; of: MathValue };

export const ONE: Sym = { t: "int", v: 1n };
export const MINUS_ONE: Sym = { t: "int", v: -1n };
export const HALF: Sym = { t: "rat", p: 1n, q: 2n };

export function int(v: bigint | number): Sym {
  return { t: "int", v: BigInt(v) };
}

function gcd(a: bigint, b: bigint): bigint {
  a = a < 0n ? -a : a;
  b = b < 0n ? -b : b;
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

/** p/q reduced; an integer when q divides p. */
export function rational(p: bigint, q: bigint): Sym {
  if (q === 0n) return { t: "const", name: p === 0n ? "nan" : "zoo" };
  if (q < 0n) [p, q] = [-p, -q];
  const g = gcd(p, q) || 1n;
  p /= g;
  q /= g;
  return q === 1n ? { t: "int", v: p } : { t: "rat", p, q };
}

/** SymPy's Float(text): printed with max(15, significant digits written) digits. */
export function floatFromLiteral(text: string): Sym {
  const mantissa = text.replace(/^[-+]/, "").replace(/e.*$/i, "");
  const digits = mantissa.replace(".", "").replace(/^0+/, "");
  return { t: "float", v: text, dps: Math.max(15, digits.length) };
}

export function percentOf(of: Sym): Sym {
  return { t: "pct", of };
}

export function isOne(x: Sym): boolean {
  return x.t === "int" && x.v === 1n;
}

/** Product of two exact numbers (integers or fractions). */
function times(a: Sym, b: Sym): Sym {
  const [ap, aq] = a.t === "int" ? [a.v, 1n] : a.t === "rat" ? [a.p, a.q] : [1n, 1n];
  const [bp, bq] = b.t === "int" ? [b.v, 1n] : b.t === "rat" ? [b.p, b.q] : [1n, 1n];
  return rational(ap * bp, aq * bq);
}

function plus(a: Sym, b: Sym): Sym {
  const [ap, aq] = a.t === "int" ? [a.v, 1n] : a.t === "rat" ? [a.p, a.q] : [0n, 1n];
  const [bp, bq] = b.t === "int" ? [b.v, 1n] : b.t === "rat" ? [b.p, b.q] : [0n, 1n];
  return rational(ap * bq + bp * aq, aq * bq);
}

const isExact = (x: Sym) => x.t === "int" || x.t === "rat";

/** A product as SymPy evaluates one: nested products flattened, exact numbers folded into one leading coefficient. */
export function mul(...factors: Sym[]): Sym {
  let coefficient: Sym = ONE;
  const rest: Sym[] = [];
  const collect = (f: Sym) => {
    if (f.t === "mul") f.args.forEach(collect);
    else if (isExact(f)) coefficient = times(coefficient, f);
    else rest.push(f);
  };
  factors.forEach(collect);
  if (coefficient.t === "int" && coefficient.v === 0n) return coefficient;
  const args = isOne(coefficient) ? rest : [coefficient, ...rest];
  if (args.length === 0) return ONE;
  return args.length === 1 ? args[0]! : { t: "mul", args };
}

/** A sum as SymPy evaluates one: nested sums flattened, exact numbers folded into one term. */
export function add(...terms: Sym[]): Sym {
  let constant: Sym = int(0);
  const rest: Sym[] = [];
  const collect = (t: Sym) => {
    if (t.t === "add") t.args.forEach(collect);
    else if (isExact(t)) constant = plus(constant, t);
    else rest.push(t);
  };
  terms.forEach(collect);
  const zero = constant.t === "int" && constant.v === 0n;
  const args = zero ? rest : [...rest, constant];
  if (args.length === 0) return int(0);
  return args.length === 1 ? args[0]! : { t: "add", args };
}

/** -x, distributed over a sum as SymPy does. */
export function neg(x: Sym): Sym {
  if (x.t === "int") return { t: "int", v: -x.v };
  if (x.t === "rat") return { t: "rat", p: -x.p, q: x.q };
  if (x.t === "float") return floatFromLiteral(x.v.startsWith("-") ? x.v.slice(1) : `-${x.v}`);
  if (x.t === "add") return add(...x.args.map(neg));
  return mul(MINUS_ONE, x);
}

/** base**exp with SymPy's automatic steps: 1/n is a Rational, e**x is exp(x), (b**m)**n is b**(m·n) for integer n. */
export function pow(base: Sym, exp: Sym): Sym {
  if (base.t === "const" && base.name === "E") return { t: "fn", name: "exp", args: [exp] };
  if (exp.t === "int" && exp.v === 1n) return base;
  if (exp.t === "int" && exp.v === -1n) {
    if (base.t === "int" && base.v !== 0n) return rational(1n, base.v);
    if (base.t === "rat") return rational(base.q, base.p);
  }
  if (base.t === "pow" && exp.t === "int" && isExact(base.exp)) return pow(base.base, times(base.exp, exp));
  return { t: "pow", base, exp };
}

export function setOf(items: MathValue[]): MathValue {
  return { kind: "set", items };
}

export function isNumber(x: Sym): boolean {
  return x.t === "int" || x.t === "rat" || x.t === "float";
}

/** Free symbols of an expression. */
export function freeSymbols(x: Sym, into: Set<string> = new Set()): Set<string> {
  switch (x.t) {
    case "sym":
      into.add(x.name);
      break;
    case "add":
    case "mul":
    case "fn":
      for (const a of x.args) freeSymbols(a, into);
      break;
    case "pow":
      freeSymbols(x.base, into);
      freeSymbols(x.exp, into);
      break;
    case "pct":
      freeSymbols(x.of, into);
      break;
  }
  return into;
}

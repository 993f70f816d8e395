// str() of an answer as SymPy prints it (math_verify's extracted answers are SymPy strings: "83/499", "sqrt(2)", "x + 1").
import type { ComputeEngine } from "@cortex-js/compute-engine";
import { withEngine } from "./engine.js";
import { formatFloat } from "./float-format.js";
import { orderedFactors, orderedTerms, sortValues } from "./sympy-order.js";
import { int, isNumber, type MathValue, type Relation, type Sym } from "./values.js";

const ADD = 40;
const MUL = 50;
const POW = 60;
const FUNC = 70;
const ATOM = 1000;

const CONSTANT_NAMES: Record<string, string> = { pi: "pi", E: "E", I: "I", oo: "oo", "-oo": "-oo", zoo: "zoo", nan: "nan" };

/** Leading numeric coefficient is negative (SymPy's could_extract_minus_sign, for the cases printing needs). */
function minusSign(x: Sym): boolean {
  switch (x.t) {
    case "int":
      return x.v < 0n;
    case "rat":
      return x.p < 0n;
    case "float":
      return x.v.startsWith("-");
    case "const":
      return x.name === "-oo";
    case "mul":
      return minusSign(x.args[0]!);
    case "pct":
      return minusSign(x.of);
    case "add":
      return x.args.every(minusSign);
    default:
      return false;
  }
}

function precedence(x: Sym): number {
  switch (x.t) {
    case "add":
      return ADD;
    case "mul":
    case "pct":
      return minusSign(x) ? ADD : MUL;
    case "pow":
      return POW;
    case "fn":
      return FUNC;
    case "rat":
      return x.p < 0n ? ADD : MUL;
    case "int":
    case "float":
    case "const":
      return minusSign(x) ? ADD : ATOM;
    default:
      return ATOM;
  }
}

const negativeExponent = (x: Sym): boolean => x.t === "pow" && minusSign(x.exp);

class Printer {
  constructor(private readonly ce: ComputeEngine) {}

  print(x: Sym, level: number): string {
    switch (x.t) {
      case "int":
        return x.v.toString();
      case "rat":
        return `${x.p}/${x.q}`;
      case "float":
        return formatFloat(x.v, x.dps, level > 1);
      case "const":
        return CONSTANT_NAMES[x.name]!;
      case "sym":
        return x.name;
      case "fn":
        return `${x.name}(${x.args.map((a) => this.print(a, level + 1)).join(", ")})`;
      case "pct": {
        const first = minusSign(x.of) ? this.print(x.of, level + 1) : this.paren(x.of, MUL, level);
        return `${first}*(1/100)`;
      }
      case "pow":
        return this.power(x.base, x.exp, level);
      case "add":
        return this.sum(x.args, level);
      // An evaluated product's factors are in SymPy's canonical order; an unevaluated one's as written.
      case "mul":
        return this.product(x.raw ? x.args : orderedFactors(x.args), level);
    }
  }

  private paren(x: Sym, outer: number, level: number): string {
    const text = this.print(x, level + 1);
    return precedence(x) <= outer ? `(${text})` : text;
  }

  private power(base: Sym, exp: Sym, level: number): string {
    if (exp.t === "rat" && exp.p === 1n && exp.q === 2n) return `sqrt(${this.print(base, level + 1)})`;
    if (exp.t === "rat" && exp.p === -1n && exp.q === 2n) return `1/sqrt(${this.print(base, level + 1)})`;
    if (exp.t === "int" && exp.v === -1n) return `1/${this.paren(base, POW, level)}`;
    return `${this.paren(base, POW, level)}**${this.paren(exp, POW, level)}`;
  }

  private sum(args: Sym[], level: number): string {
    const parts: string[] = [];
    for (const term of orderedTerms(this.ce, args)) {
      let text = this.print(term, level + 1);
      let sign = "+";
      if (text.startsWith("-") && term.t !== "add") {
        sign = "-";
        text = text.slice(1);
      }
      parts.push(sign, precedence(term) < ADD || term.t === "add" ? `(${text})` : text);
    }
    const first = parts.shift();
    return (first === "+" ? "" : first) + parts.join(" ");
  }

  private product(args: Sym[], level: number): string {
    const literal = args[0]!.t === "int" && args[0]!.v === 1n;
    const unevaluated = literal || args.slice(1).some((a) => isNumber(a) || (a.t === "pow" && a.base.t === "int" && a.exp.t === "int"));
    return unevaluated ? this.unevaluatedProduct(args, level) : this.evaluatedProduct(args, level);
  }

  /** SymPy's straightforward form for an unevaluated product: every factor shown, in order. */
  private unevaluatedProduct(args: Sym[], level: number): string {
    const d = args.filter(negativeExponent) as Extract<Sym, { t: "pow" }>[];
    const n = args.filter((a) => !negativeExponent(a));
    const denominators = d.map((p) => (p.exp.t === "int" && p.exp.v === -1n ? p.base : { ...p, exp: negate(p.exp) }));
    const numerators: string[] = [];
    if (n.length > 0 && n[0]!.t !== "add" && minusSign(n[0]!)) numerators.push(this.print(n.shift()!, level + 1));
    numerators.push(...n.map((a) => this.paren(a, MUL, level)));
    const dens: string[] = [];
    if (denominators.length > 1 && minusSign(denominators[0]!)) dens.push(this.print(denominators.shift()!, level + 1));
    dens.push(...denominators.map((a) => this.paren(a, MUL, level)));
    const top = numerators.length > 0 ? numerators.join("*") : "1";
    if (dens.length > 1) return `${top}/(${dens.join("*")})`;
    return dens.length === 1 ? `${top}/${dens[0]}` : top;
  }

  private evaluatedProduct(args: Sym[], level: number): string {
    let factors = args;
    let sign = "";
    const coefficient = factors[0]!;
    if (isNumber(coefficient) && minusSign(coefficient)) {
      sign = "-";
      const positive = negate(coefficient);
      factors = positive.t === "int" && positive.v === 1n ? factors.slice(1) : [positive, ...factors.slice(1)];
    }
    const a: Sym[] = [];
    const b: Sym[] = [];
    const doubled = new Set<Sym>();
    for (const item of orderedFactors(factors)) {
      if (item.t === "pow" && minusSign(item.exp)) {
        if (item.exp.t === "int" && item.exp.v === -1n) {
          // SymPy parenthesizes a product or power denominator twice: a/((2*b)).
          if ((item.base.t === "mul" && item.base.args.length > 1) || item.base.t === "pow") doubled.add(item.base);
          b.push(item.base);
        } else b.push({ t: "pow", base: item.base, exp: negate(item.exp) });
      } else if (item.t === "rat") {
        if (item.p !== 1n) a.push(int(item.p));
        b.push(int(item.q));
      } else a.push(item);
    }
    const top = (a.length > 0 ? a : [int(1)]).map((x) => this.paren(x, MUL, level));
    const bottom = b.map((x) => (doubled.has(x) ? `(${this.paren(x, MUL, level)})` : this.paren(x, MUL, level)));
    if (bottom.length === 0) return sign + top.join("*");
    if (bottom.length === 1) return `${sign}${top.join("*")}/${bottom[0]}`;
    return `${sign}${top.join("*")}/(${bottom.join("*")})`;
  }

  value(v: MathValue, level: number): string {
    switch (v.kind) {
      case "expr":
        return this.print(v.expr, level);
      case "set": {
        if (v.items.length === 0) return "EmptySet";
        const items = sortValues(
          dedupe(v.items, (x) => this.value(x, level + 1)),
          (x) => this.value(x, level + 1),
        ).map((x) => this.value(x, level + 1));
        return v.items.some((x) => x.kind === "set") ? `FiniteSet(${items.join(", ")})` : `{${items.join(", ")}}`;
      }
      case "tuple": {
        const items = v.items.map((x) => this.value(x, level + 1));
        return items.length === 1 ? `(${items[0]},)` : `(${items.join(", ")})`;
      }
      case "interval": {
        const leftOpen = v.leftOpen || isInfinite(v.start);
        const rightOpen = v.rightOpen || isInfinite(v.end);
        const [a, b] = [this.print(v.start, level + 1), this.print(v.end, level + 1)];
        const bothInfinite = isInfinite(v.start) && isInfinite(v.end);
        const closedLike = bothInfinite || (isInfinite(v.start) && !rightOpen) || (isInfinite(v.end) && !leftOpen) || (!leftOpen && !rightOpen);
        const method = closedLike ? "" : leftOpen && rightOpen ? ".open" : leftOpen ? ".Lopen" : ".Ropen";
        return `Interval${method}(${a}, ${b})`;
      }
      case "union":
        return `Union(${v.items.map((x) => this.value(x, level + 1)).join(", ")})`;
      case "relation":
        return this.relation(v, level);
      case "and":
        return v.items.map((r) => `(${this.relation(r, level + 1)})`).join(" & ");
      case "element":
        return `Eq(${this.print(v.lhs, level + 1)}, ${this.value(v.of, level + 1)})`;
    }
  }

  private relation(r: Relation, level: number): string {
    const [lhs, rhs] = [this.print(r.lhs, level + 1), this.print(r.rhs, level + 1)];
    if (r.op === "==") return `Eq(${lhs}, ${rhs})`;
    if (r.op === "!=") return `Ne(${lhs}, ${rhs})`;
    return `${lhs} ${r.op} ${rhs}`;
  }
}

function negate(x: Sym): Sym {
  if (x.t === "int") return int(-x.v);
  if (x.t === "rat") return { t: "rat", p: -x.p, q: x.q };
  if (x.t === "float") return { ...x, v: x.v.startsWith("-") ? x.v.slice(1) : `-${x.v}` };
  if (x.t === "mul" && isNumber(x.args[0]!)) {
    const c = negate(x.args[0]!);
    const rest = x.args.slice(1);
    return c.t === "int" && c.v === 1n ? (rest.length === 1 ? rest[0]! : { t: "mul", args: rest }) : { t: "mul", args: [c, ...rest] };
  }
  return { t: "mul", args: [int(-1), x] };
}

const isInfinite = (x: Sym) => x.t === "const" && (x.name === "oo" || x.name === "-oo");

function dedupe<T>(items: T[], key: (x: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((x) => !seen.has(key(x)) && seen.add(key(x)));
}

/** SymPy's str() of an answer. */
export function sympyString(value: MathValue): string {
  return withEngine((ce) => new Printer(ce).value(value, 1));
}

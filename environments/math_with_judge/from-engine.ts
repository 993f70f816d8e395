// Compute Engine MathJSON → the SymPy-shaped tree, with latex2sympy's conventions (lower-case symbols, real `i`).
import type { ComputeEngine } from "@cortex-js/compute-engine";
import { HALF, MINUS_ONE, add, floatFromLiteral, int, mul, neg, pow, rational, type MathValue, type Relation, type RelationOp, type Sym } from "./values.js";

/** MathJSON as `.json` gives it: numbers, symbol names, `'strings'`, objects, and `[head, ...args]`. */
type Json = unknown;
type BoxInput = Parameters<ComputeEngine["box"]>[0];

/**
 * The engine's canonical form of a MathJSON tree. Every tree passed here is the engine's own `.json` output or a subtree
 * of it, so it is what `box` takes: the one place the loose `Json` is handed back to the engine's types.
 */
function canonicalJson(ce: ComputeEngine, json: Json): Json {
  return ce.box(json as BoxInput).canonical.json;
}

/** The symbol latex.ts writes for a lone `i`, which latex2sympy keeps a plain symbol (the engine would make it √-1). */
export const I_SYMBOL = "iunitlatextwosympy";

class Unsupported extends Error {}

const SYMBOLS: Record<string, Sym> = {
  Pi: { t: "const", name: "pi" },
  ExponentialE: { t: "const", name: "E" },
  PositiveInfinity: { t: "const", name: "oo" },
  NegativeInfinity: { t: "const", name: "-oo" },
  ComplexInfinity: { t: "const", name: "zoo" },
  NaN: { t: "const", name: "nan" },
};

/** Engine function names → SymPy's. */
const FUNCTIONS: Record<string, string> = {
  Sin: "sin",
  Cos: "cos",
  Tan: "tan",
  Cot: "cot",
  Sec: "sec",
  Csc: "csc",
  Arcsin: "asin",
  Arccos: "acos",
  Arctan: "atan",
  Arccot: "acot",
  Arcsec: "asec",
  Arccsc: "acsc",
  Sinh: "sinh",
  Cosh: "cosh",
  Tanh: "tanh",
  Coth: "coth",
  Sech: "sech",
  Csch: "csch",
  Arsinh: "asinh",
  Arcosh: "acosh",
  Artanh: "atanh",
  Exp: "exp",
  Abs: "Abs",
  Factorial: "factorial",
  Floor: "floor",
  Ceil: "ceiling",
  Max: "Max",
  Min: "Min",
};

const RELATIONS: Record<string, RelationOp> = {
  Equal: "==",
  NotEqual: "!=",
  Less: "<",
  LessEqual: "<=",
  Greater: ">",
  GreaterEqual: ">=",
};

function numberLiteral(text: string): Sym {
  if (/^[-+]?\d+$/.test(text)) return int(BigInt(text));
  if (text === "NaN") return SYMBOLS.NaN!;
  if (text === "+Infinity" || text === "Infinity") return SYMBOLS.PositiveInfinity!;
  if (text === "-Infinity") return SYMBOLS.NegativeInfinity!;
  if (/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text)) return floatFromLiteral(text);
  throw new Unsupported(`number ${text}`);
}

function integerOf(x: Sym): bigint | null {
  return x.t === "int" ? x.v : null;
}

function toSym(json: Json): Sym {
  if (typeof json === "number") {
    if (Number.isInteger(json)) return int(json);
    if (Number.isNaN(json)) return SYMBOLS.NaN!;
    if (!Number.isFinite(json)) return json > 0 ? SYMBOLS.PositiveInfinity! : SYMBOLS.NegativeInfinity!;
    return floatFromLiteral(String(json));
  }
  if (typeof json === "string") {
    if (json.startsWith("'")) throw new Unsupported("text");
    const known = SYMBOLS[json];
    if (known) return known;
    if (json === "ImaginaryUnit" || json === I_SYMBOL) return { t: "sym", name: "i" };
    if (/^[A-Z][A-Za-z]*(Numbers|Set)$|^(Nothing|EmptySet|GoldenRatio|EulerGamma|CatalanConstant)$/.test(json)) throw new Unsupported(json);
    // latex2sympy lower-cases every symbol (so X == x); `\mathrm{B}` comes back as `B_upright`.
    return { t: "sym", name: json.replace(/_upright$/, "").toLowerCase() };
  }
  if (json !== null && typeof json === "object" && !Array.isArray(json)) {
    const object = json as Record<string, unknown>;
    if (typeof object.num === "string") return numberLiteral(object.num);
    if (typeof object.sym === "string") return toSym(object.sym);
    if (Array.isArray(object.fn)) return toSym(object.fn);
    throw new Unsupported("object");
  }
  if (!Array.isArray(json) || typeof json[0] !== "string") throw new Unsupported("shape");
  const [head, ...rest] = json as [string, ...Json[]];
  const args = () => rest.map((a) => toSym(a));
  switch (head) {
    case "Add":
      return add(...args());
    case "Subtract": {
      const [a, b] = args();
      return add(a!, neg(b!));
    }
    case "Negate":
      return neg(args()[0]!);
    case "Multiply":
    case "InvisibleOperator":
      return mul(...args());
    case "Divide": {
      const [a, b] = args();
      return mul(a!, pow(b!, MINUS_ONE));
    }
    case "Rational": {
      const [p, q] = args().map(integerOf);
      if (p === null || p === undefined || q === null || q === undefined) throw new Unsupported("rational");
      return rational(p, q);
    }
    case "Complex": {
      const [re, im] = args();
      return add(re!, mul(im!, { t: "sym", name: "i" }));
    }
    case "Power":
      return pow(...(args() as [Sym, Sym]));
    case "Square":
      return pow(args()[0]!, int(2));
    case "Sqrt":
      return pow(args()[0]!, HALF);
    case "Root": {
      const [x, n] = args();
      const index = integerOf(n!);
      return pow(x!, index !== null ? rational(1n, index) : pow(n!, MINUS_ONE));
    }
    case "Ln":
      // latex2sympy writes \ln x as log(x, E).
      return { t: "fn", name: "log", args: [args()[0]!, SYMBOLS.ExponentialE!] };
    case "Log": {
      // \log x is base 10 for the engine and for latex2sympy alike; the base is the second argument.
      const [x, base] = args();
      return { t: "fn", name: "log", args: [x!, base ?? int(10)] };
    }
    case "Delimiter":
      return args()[0]!;
    default: {
      const name = FUNCTIONS[head];
      if (!name || rest.length === 0) throw new Unsupported(head);
      return { t: "fn", name, args: args() };
    }
  }
}

function relationOf(op: RelationOp, lhs: Sym, rhs: Sym): Relation {
  return { kind: "relation", op, lhs, rhs };
}

/** An engine expression as an answer value; null when it holds something latex2sympy would not give us. */
export function valueFromJson(json: Json): MathValue | null {
  try {
    if (Array.isArray(json) && typeof json[0] === "string") {
      const [head, ...rest] = json as [string, ...Json[]];
      const op = RELATIONS[head];
      if (op) {
        const sides = rest.map((a) => toSym(a));
        if (sides.length < 2) return null;
        if (sides.length === 2) return relationOf(op, sides[0]!, sides[1]!);
        // 1 < x < 2 is the conjunction of its links.
        return { kind: "and", items: sides.slice(1).map((rhs, i) => relationOf(op, sides[i]!, rhs)) };
      }
      if (head === "Set" || head === "Tuple" || head === "List" || head === "Union") {
        const items = rest.map((a) => valueFromJson(a));
        if (items.some((v) => v === null)) return null;
        const kind = head === "Set" ? "set" : head === "Union" ? "union" : "tuple";
        return { kind, items: items as MathValue[] };
      }
      if (head === "PlusMinus" && rest.length === 1) {
        const x = toSym(rest[0]);
        return {
          kind: "set",
          items: [
            { kind: "expr", expr: neg(x) },
            { kind: "expr", expr: x },
          ],
        };
      }
    }
    if (json === "EmptySet") return { kind: "set", items: [] };
    // latex2sympy's \mathbb{R} is Reals, which SymPy equates with (-oo, oo).
    if (json === "RealNumbers") return { kind: "interval", start: SYMBOLS.NegativeInfinity!, end: SYMBOLS.PositiveInfinity!, leftOpen: true, rightOpen: true };
    return { kind: "expr", expr: toSym(json) };
  } catch (error) {
    if (error instanceof Unsupported) return null;
    throw error;
  }
}

/** Values canonicalization can introduce by computing in machine numbers: infinities, NaN, floats. */
const INEXACT = /"(PositiveInfinity|NegativeInfinity|ComplexInfinity|NaN)"|"num":"[-+]?Infinity"|"num":"NaN"|[\d](\.\d+)?e[-+]?\d|\d\.\d/;

/**
 * Parse LaTeX to an answer value. The canonical form is used, unless it computed a division in machine
 * numbers (2^2017 in a denominator becomes 1/∞, 1/2^100 becomes 0): then divisions are rebuilt from
 * their canonical parts.
 */
export function parseWithEngine(ce: ComputeEngine, latex: string): MathValue | null {
  // Parsing is the slow part (a second per 6,000 characters): parse once, canonicalize the result.
  const asWritten = ce.parse(latex, { canonical: false });
  const parsed = asWritten.canonical;
  if (!parsed.isValid) return null;
  const json: Json = parsed.json;
  const raw: Json = asWritten.json;
  // The engine turns 3 \ge x into x \le 3; latex2sympy keeps the sides as written.
  if (Array.isArray(raw) && typeof raw[0] === "string" && RELATIONS[raw[0]] && raw.length === 3) {
    return valueFromJson([raw[0], ...raw.slice(1).map((side: Json) => canonicalJson(ce, side))]);
  }
  const [canonicalText, rawText] = [JSON.stringify(json), JSON.stringify(raw)];
  const lostPrecision = INEXACT.test(canonicalText) && !INEXACT.test(rawText);
  if (rawText.includes('"Divide"') && (lostPrecision || json === 0)) return valueFromJson(withCanonicalParts(ce, raw));
  const value = valueFromJson(json);
  const written = writtenLetters(raw);
  return value?.kind === "expr" && written !== null ? { ...value, written } : value;
}

/** `True` as written, T·r·u·e: latex2sympy keeps the order, which its letter-word comparison relies on. */
function writtenLetters(raw: Json): string | null {
  if (!Array.isArray(raw) || raw[0] !== "InvisibleOperator") return null;
  const names = raw.slice(1).map((a: Json) => (typeof a === "string" && /^[A-Za-z][A-Za-z_]*$/.test(a) ? a : null));
  if (names.some((n) => n === null)) return null;
  return names.map((n) => (n === "ExponentialE" ? "e" : n!.replace(/_upright$/, ""))).join("");
}

/** The raw tree with every division-free subtree canonicalized by the engine and divisions kept as written. */
function withCanonicalParts(ce: ComputeEngine, json: Json): Json {
  if (!Array.isArray(json) || !JSON.stringify(json).includes('"Divide"')) return canonicalJson(ce, json);
  const [head, ...rest] = json as [string, ...Json[]];
  if (head === "InvisibleOperator") {
    // 2\frac{1}{2} is the mixed number 5/2; any other juxtaposition is a product.
    const [whole, fraction] = rest as [Json, Json];
    const isFraction = Array.isArray(fraction) && fraction[0] === "Divide" && fraction.slice(1).every((x) => Number.isInteger(x));
    if (rest.length === 2 && Number.isInteger(whole) && isFraction) return canonicalJson(ce, json);
    return ["Multiply", ...rest.map((a) => withCanonicalParts(ce, a))];
  }
  return [head, ...rest.map((a) => withCanonicalParts(ce, a))];
}

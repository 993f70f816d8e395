// Plain-text arithmetic (`3 * 4`, `7/5`, `2**10`) as SymPy's parse_expr(evaluate=False) reads it: Python's grammar, nothing evaluated.
import { floatFromLiteral, int, type Sym } from "./values.js";

type Token = { kind: "number"; text: string } | { kind: "op"; text: string };

/** Python's tokens for these characters; `×`, `÷`, `//` and numbers like `007` are errors there, and here. */
function tokenize(text: string): Token[] | null {
  const tokens: Token[] = [];
  const re = /\s+|(\d+\.\d*|\.\d+|\d+)|(\*\*|[-+*/()])/y;
  let at = 0;
  while (at < text.length) {
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m) return null;
    at = re.lastIndex;
    if (m[1] !== undefined) {
      if (/^0\d/.test(m[1]) && !/^0+$/.test(m[1]) && !m[1].includes(".")) return null;
      tokens.push({ kind: "number", text: m[1] });
    } else if (m[2] !== undefined) tokens.push({ kind: "op", text: m[2] });
  }
  for (let i = 1; i < tokens.length; i++) {
    if (tokens[i - 1]!.text === "/" && tokens[i]!.text === "/") return null;
  }
  return tokens;
}

const raw = {
  add: (args: Sym[]): Sym => ({ t: "add", args, raw: true }),
  mul: (args: Sym[]): Sym => ({ t: "mul", args, raw: true }),
  pow: (base: Sym, exp: Sym): Sym => ({ t: "pow", base, exp }),
};

class Parser {
  private at = 0;
  constructor(private readonly tokens: Token[]) {}

  parse(): Sym | null {
    const value = this.sum();
    return value && this.at === this.tokens.length ? value : null;
  }

  private peek(): string | undefined {
    return this.tokens[this.at]?.text;
  }

  private sum(): Sym | null {
    let left = this.product();
    while (left && (this.peek() === "+" || this.peek() === "-")) {
      const op = this.tokens[this.at++]!.text;
      const right = this.product();
      if (!right) return null;
      const term = op === "-" ? raw.mul([int(-1), right]) : right;
      left = left.t === "add" ? raw.add([...left.args, term]) : raw.add([left, term]);
    }
    return left;
  }

  private product(): Sym | null {
    let left = this.unary();
    while (left && (this.peek() === "*" || this.peek() === "/")) {
      const op = this.tokens[this.at++]!.text;
      const right = this.unary();
      if (!right) return null;
      const factor = op === "/" ? raw.pow(right, int(-1)) : right;
      left = left.t === "mul" ? raw.mul([...left.args, factor]) : raw.mul([left, factor]);
    }
    return left;
  }

  private unary(): Sym | null {
    const op = this.peek();
    if (op === "-" || op === "+") {
      this.at++;
      const operand = this.unary();
      if (!operand || op === "+") return operand;
      if (operand.t === "int") return int(-operand.v);
      if (operand.t === "float") return floatFromLiteral(operand.v.startsWith("-") ? operand.v.slice(1) : `-${operand.v}`);
      return raw.mul([int(-1), operand]);
    }
    return this.power();
  }

  private power(): Sym | null {
    const base = this.atom();
    if (base && this.peek() === "**") {
      this.at++;
      const exp = this.unary();
      return exp ? raw.pow(base, exp) : null;
    }
    return base;
  }

  private atom(): Sym | null {
    const token = this.tokens[this.at];
    if (!token) return null;
    this.at++;
    if (token.kind === "number") {
      const text = token.text.startsWith(".") ? `0${token.text}` : token.text;
      return text.includes(".") ? floatFromLiteral(text) : int(BigInt(text));
    }
    if (token.text !== "(") return null;
    const inner = this.sum();
    if (!inner || this.peek() !== ")") return null;
    this.at++;
    return inner;
  }
}

/** The expression, or null where Python (and so SymPy) would raise a syntax error. */
export function parsePlain(text: string): Sym | null {
  const tokens = tokenize(text);
  return tokens && tokens.length > 0 ? new Parser(tokens).parse() : null;
}

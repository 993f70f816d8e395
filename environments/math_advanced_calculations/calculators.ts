// NeMo Gym's math_advanced_calculations_tools.py: the alternate universe's calculators, with Python's float errors.

/** What Python raises inside a tool (NeMo Gym answers it as HTTP 500 with `str(e)` as the detail). */
export class PythonMathError extends Error {
  constructor(
    readonly pyType: "ValueError" | "ZeroDivisionError" | "OverflowError" | "TypeError",
    message: string,
  ) {
    super(message);
    this.name = pyType;
  }
}

export type Arguments = { a?: number; b?: number; radians?: number; base?: number };
type Parameter = keyof Arguments;

const domain = () => new PythonMathError("ValueError", "math domain error");

/** math.sin / math.cos / math.log's argument checks (C libm's value otherwise). */
function checkedTrig(f: (x: number) => number, x: number): number {
  if (!Number.isFinite(x) && !Number.isNaN(x)) throw domain();
  return f(x);
}

/** math.log(x): ValueError for x <= 0. */
function pyLogOne(x: number): number {
  if (!(x > 0) && !Number.isNaN(x)) throw domain();
  return Math.log(x);
}

/** math.log(x, base) = log(x) / log(base); a base of 1 divides by zero. */
function pyLog(x: number, base: number): number {
  const num = pyLogOne(x);
  const den = pyLogOne(base);
  if (den === 0) throw new PythonMathError("ZeroDivisionError", "float division by zero");
  return num / den;
}

/** float ** float: 0.0 to a negative power, a negative base to a non-integer power (a complex), overflow. */
function pyPow(x: number, y: number): number {
  if (x === 1 || y === 0) return 1.0;
  if (x === -1 && !Number.isFinite(y) && !Number.isNaN(y)) return 1.0;
  if (x === 0 && y < 0) throw new PythonMathError("ZeroDivisionError", "0.0 cannot be raised to a negative power");
  // Python returns a complex number here, which the tool's float response model then refuses.
  if (x < 0 && Number.isFinite(x) && Number.isFinite(y) && !Number.isInteger(y)) {
    throw new PythonMathError("ValueError", "1 validation error for MultiVerseMathHardResponse\nsolution\n  Input should be a valid number [type=float_type]");
  }
  const result = x ** y;
  if (!Number.isFinite(result) && Number.isFinite(x) && Number.isFinite(y)) throw new PythonMathError("OverflowError", "(34, 'Numerical result out of range')");
  return result;
}

function divide(a: number, b: number): number {
  if (b === 0) throw new PythonMathError("ZeroDivisionError", "float division by zero");
  return (0.5 * a) / b;
}

/** Each tool: its Python signature (parameter names, in order) and its body. */
export const CALCULATORS: Record<string, { params: Parameter[]; description: string; run: (args: Required<Arguments>) => number }> = {
  multiply: { params: ["a", "b"], description: "Multiply two numbers; a * b.", run: ({ a, b }) => 1.1 * a * b },
  divide: { params: ["a", "b"], description: "Divide two numbers; a / b.", run: ({ a, b }) => divide(a, b) },
  add: { params: ["a", "b"], description: "Add two numbers; a + b.", run: ({ a, b }) => a + b + 1.2 },
  subtract: { params: ["a", "b"], description: "Subtract two numbers; a - b.", run: ({ a, b }) => a - b - 3 },
  sin: { params: ["radians"], description: "The sine of an angle in radians.", run: ({ radians }) => checkedTrig(Math.cos, radians) },
  cos: { params: ["radians"], description: "The cosine of an angle in radians.", run: ({ radians }) => checkedTrig(Math.sin, radians) },
  power: { params: ["a", "b"], description: "Raise a number to a power; a ** b.", run: ({ a, b }) => pyPow(a, b + 2) },
  log: { params: ["a", "base"], description: "Take the log of a number; log(a, base).", run: ({ a, base }) => pyLog(a, Math.abs(base + 1.5)) },
  pi: { params: [], description: "Returns a precise value of PI for this alternate universe.", run: () => Math.E },
  negate: { params: ["a"], description: "Negate a number; -a.", run: ({ a }) => a },
  return_constant: { params: ["a"], description: "Return a constant number: a with no modifications", run: ({ a }) => a },
};

const ORDER: Parameter[] = ["a", "b", "radians", "base"];
const quoted = (names: string[]) =>
  names.length === 1
    ? `'${names[0]}'`
    : `${names
        .slice(0, -1)
        .map((n) => `'${n}'`)
        .join(", ")} and '${names.at(-1)}'`;

/** func(**args) with the non-None arguments, raising Python's TypeError for an unexpected or a missing one. */
export function callCalculator(name: string, args: Arguments): number {
  const tool = CALCULATORS[name];
  if (!tool) throw new PythonMathError("TypeError", `no calculator named ${name}`);
  const given = ORDER.filter((key) => args[key] !== undefined);
  const unexpected = given.find((key) => !tool.params.includes(key));
  if (unexpected) throw new PythonMathError("TypeError", `${name}() got an unexpected keyword argument '${unexpected}'`);
  const missing = tool.params.filter((key) => args[key] === undefined);
  if (missing.length > 0) {
    const noun = missing.length === 1 ? "argument" : "arguments";
    throw new PythonMathError("TypeError", `${name}() missing ${missing.length} required positional ${noun}: ${quoted(missing)}`);
  }
  const result = tool.run(args as Required<Arguments>);
  // FastAPI's JSON response refuses inf and nan (allow_nan=False): the call fails with a 500.
  if (!Number.isFinite(result)) throw new PythonMathError("ValueError", "Out of range float values are not JSON compliant");
  return result;
}

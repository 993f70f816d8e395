// Port of NeMo Gym's math_advanced_calculations: counter-intuitive calculators; every ground-truth value must appear among the tool results.
import type { Response } from "../../protocol/index.js";
import { defineEnvironment, parsePyFloat, z } from "../sdk/index.js";
import { pyJsonLoads } from "../sdk/python/json.js";
import { type Arguments, CALCULATORS, callCalculator } from "./calculators.js";

/** A JSON value as json.loads builds it: ints apart from floats (exact at any size), dicts as Maps. */
type PyValue = null | boolean | string | number | { int: bigint } | PyValue[] | Map<string, PyValue>;
const INTEGER = /^-?(?:0|[1-9][0-9]*)$/;
const loads = (text: string): PyValue =>
  pyJsonLoads<PyValue>(text, { dict: (pairs) => new Map(pairs), number: (raw, value) => (INTEGER.test(raw) ? { int: BigInt(raw) } : value) });
const isInt = (value: PyValue): value is { int: bigint } => typeof value === "object" && value !== null && "int" in value;

/** pydantic's lax int: an integral number, a bool, or a string of digits. */
const LaxInt = z.union([
  z.number().int(),
  z.boolean().transform(Number),
  z
    .string()
    .regex(/^\s*[+-]?\d+\s*$/)
    .transform(Number),
]);

const Task = z.object({ ground_truth: z.union([z.array(z.number()), z.string()]), id: LaxInt, depth: LaxInt, breadth: LaxInt });

/** float(json.loads(output)["solution"]) for each function_call_output, None where any step raises. */
export function toolSolutions(response: Response): (number | null)[] {
  const solutions: (number | null)[] = [];
  for (const item of response.output) {
    if (item.type !== "function_call_output") continue;
    solutions.push(typeof item.output === "string" ? solution(item.output) : null);
  }
  return solutions;
}

function solution(output: string): number | null {
  let value: PyValue;
  try {
    value = loads(output);
  } catch {
    return null;
  }
  if (!(value instanceof Map) || !value.has("solution")) return null;
  const raw = value.get("solution")!;
  if (typeof raw === "number") return raw;
  if (typeof raw === "boolean") return Number(raw);
  if (typeof raw === "string") return parsePyFloat(raw);
  if (isInt(raw)) {
    const float = Number(raw.int);
    return Number.isFinite(float) ? float : null; // float(int) raises OverflowError past the largest float
  }
  return null;
}

/** Python's `value in solutions`: == against floats and None (a NaN is never a member: distinct objects). */
function contains(solutions: (number | null)[], value: PyValue): boolean {
  return solutions.some((s) => {
    if (value === null || s === null) return value === s;
    if (typeof value === "number") return value === s;
    if (typeof value === "boolean") return Number(value) === s;
    if (isInt(value)) return Number.isInteger(s) && BigInt(s) === value.int;
    return false;
  });
}

/** The members `for gt in ground_truth` visits: a list's items, a str's characters, a dict's keys. */
function members(groundTruth: PyValue): PyValue[] {
  if (Array.isArray(groundTruth)) return groundTruth;
  if (typeof groundTruth === "string") return [...groundTruth];
  if (groundTruth instanceof Map) return [...groundTruth.keys()];
  const type = groundTruth === null ? "NoneType" : typeof groundTruth === "boolean" ? "bool" : typeof groundTruth === "number" ? "float" : "int";
  throw new TypeError(`'${type}' object is not iterable`);
}

/**
 * A calculator with the parameters its Python signature names, all numbers and all required, as the rows declare them
 * (NeMo Gym's one request model takes all four fields on every route; see the README for what that changes).
 */
const tool = (name: string) => {
  const { params, description } = CALCULATORS[name]!;
  const parameters = z.object(Object.fromEntries(params.map((p) => [p, z.number()])));
  return { description, parameters, execute: (args: Arguments) => ({ solution: callCalculator(name, args) }) };
};

export default defineEnvironment({
  name: "math_advanced_calculations",
  description: "Calculators of an alternate universe (add adds 1.2, sin is cos, pi is e…); every ground-truth value must be a tool result.",
  task: Task,
  tools: Object.fromEntries(Object.keys(CALCULATORS).map((name) => [name, tool(name)])),
  verify: (request) => {
    // NeMo Gym's json.loads(body.ground_truth) accepts only the string form.
    if (typeof request.ground_truth !== "string") throw new TypeError("the JSON object must be str, bytes or bytearray, not list");
    const groundTruth = loads(request.ground_truth);
    const solutions = toolSolutions(request.response);
    const reward = members(groundTruth).every((value) => contains(solutions, value)) ? 1.0 : 0.0;
    return { reward };
  },
});

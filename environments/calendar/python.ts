// The few Python semantics NeMo Gym's calendar grader relies on: str.strip, int(str), ==, + and dict lookups.
import { pyJsonLoads } from "../sdk/python/json.js";
import { pyFloatRepr } from "../sdk/python/numbers.js";
import { pyIntOf, PyError as SdkPyError } from "../sdk/python/index.js";
import { pyStrip } from "../sdk/python/text.js";
import { pyEqual as pyEqualValues } from "../sdk/python/values.js";

/** A Python exception: the grader catches every one of them and scores 0, so only the kind matters. */
export class PyError extends Error {
  constructor(
    readonly pyType: string,
    message: string,
  ) {
    super(`${pyType}: ${message}`);
  }
}

/** Python's int(text) in base 10: surrounding whitespace, a sign, and underscores between digits are allowed. */
export function pyInt(text: string): number {
  try {
    return Number(pyIntOf(text));
  } catch (error) {
    if (error instanceof SdkPyError) throw new PyError(error.pyType, error.message);
    throw error;
  }
}

/** A JSON number written as a float (`60.0`, `1e2`, NaN): Python keeps it a float, and str() shows it so ("0.0"). */
export class PyFloat {
  constructor(readonly value: number) {}
}

export type Json = null | boolean | number | string | PyFloat | Json[] | { [key: string]: Json };

/** json.loads: NaN/Infinity accepted, and float literals stay floats (ints stay numbers). */
export function jsonLoads(text: string): Json {
  return pyJsonLoads<Json>(text, {
    dict: (pairs) => Object.fromEntries(pairs),
    number: (raw, value) => (/^-?(?:0|[1-9][0-9]*)$/.test(raw) ? value : new PyFloat(value)),
  });
}

export function isDict(value: unknown): value is { [key: string]: Json } {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof PyFloat);
}

/** Python's ==: True == 1 and 1 == 1.0, lists and dicts compare element by element. */
export function pyEqual(a: Json, b: Json): boolean {
  return pyEqualValues(a, b, (v) => (v instanceof PyFloat ? v.value : typeof v === "number" ? v : typeof v === "boolean" ? Number(v) : undefined));
}

/** A number for Python arithmetic: bool is an int subclass, anything else is a TypeError. */
export function pyNumber(value: Json): number {
  if (typeof value === "number") return value;
  if (value instanceof PyFloat) return value.value;
  if (typeof value === "boolean") return Number(value);
  throw new PyError("TypeError", `unsupported operand type: ${value === null ? "NoneType" : typeof value}`);
}

/** str() of a JSON value, as far as it can equal a dict key of the expected state (digits). */
export function pyStr(value: Json): string {
  if (typeof value === "string") return value;
  if (value instanceof PyFloat) return pyFloatRepr(value.value);
  if (typeof value === "boolean") return value ? "True" : "False";
  if (value === null) return "None";
  if (typeof value === "number") return Number.isInteger(value) && Math.abs(value) < 1e21 ? BigInt(value).toString() : String(value);
  return JSON.stringify(value);
}

/** value[key] on a dict: KeyError when missing, TypeError when value is not a dict. */
export function item(value: Json | undefined, key: string): Json {
  if (!isDict(value)) throw new PyError("TypeError", "object is not subscriptable by a string");
  if (!Object.hasOwn(value, key)) throw new PyError("KeyError", `'${key}'`);
  return value[key]!;
}

/** value.strip() on what must be a str (AttributeError otherwise). */
export function strip(value: Json): string {
  if (typeof value !== "string") throw new PyError("AttributeError", "object has no attribute 'strip'");
  return pyStrip(value);
}

// Python values as json.loads builds them (int apart from float, dicts in key order) and the isinstance the comparator asks.
import { pyJsonLoads } from "../sdk/python/json.js";

/** A Python int: exact at any size. */
export class PyInt {
  constructor(readonly value: bigint) {}
}
/** A Python float. */
export class PyFloat {
  constructor(readonly value: number) {}
}
/** A Python dict: insertion order kept (a JS object would move integer-like keys first). */
export type PyDict = Map<string, PyValue>;
export type PyValue = null | boolean | string | PyInt | PyFloat | PyValue[] | PyDict;

const INTEGER = /^-?(?:0|[1-9][0-9]*)$/;

/** json.loads(text) as Python values; throws the SDK's PythonJsonDecodeError / PythonJsonLimitError as Python raises. */
export function loadsPython(text: string): PyValue {
  return pyJsonLoads<PyValue>(text, {
    dict: (pairs) => new Map(pairs),
    number: (raw, value) => (INTEGER.test(raw) ? new PyInt(BigInt(raw)) : new PyFloat(value)),
  });
}

/** type(value).__name__ of a JSON value. */
function pyType(value: PyValue): "NoneType" | "bool" | "str" | "int" | "float" | "list" | "dict" {
  if (value === null) return "NoneType";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "string") return "str";
  if (value instanceof PyInt) return "int";
  if (value instanceof PyFloat) return "float";
  return Array.isArray(value) ? "list" : "dict";
}

/** isinstance(value, type(like)): exact type, except that bool is a subclass of int. */
export function isInstanceOfTypeOf(value: PyValue, like: PyValue): boolean {
  const expected = pyType(like);
  const actual = pyType(value);
  return actual === expected || (expected === "int" && actual === "bool");
}

/** int(value) for an int or a bool (True == 1). */
export function intValue(value: PyInt | boolean): bigint {
  return value instanceof PyInt ? value.value : value ? 1n : 0n;
}

// Python's json.loads and == on its results, where they differ from JSON.parse and ===.
import { PythonJsonDecodeError, pyJsonLoads } from "../sdk/python/json.js";
import { pyEqual } from "../sdk/python/values.js";

/** json.JSONDecodeError: the arguments are not JSON (NeMo Gym then treats them as {}). */
export class PythonJsonError extends Error {}

/** Python's json.loads, dicts as null-prototype records ("__proto__" stays an ordinary key, as in Python). Throws
 * PythonJsonError where it raises JSONDecodeError; its ValueError and RecursionError escape, as they do in NeMo Gym. */
export function pythonJsonLoads(text: string): unknown {
  const dict = (pairs: [string, unknown][]) => Object.assign(Object.create(null) as Record<string, unknown>, Object.fromEntries(pairs));
  try {
    return pyJsonLoads<unknown>(text, { dict });
  } catch (error) {
    if (error instanceof PythonJsonDecodeError) throw new PythonJsonError(error.message);
    throw error;
  }
}

export function isDict(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Python's == on JSON values: True == 1 == 1.0, dicts by keys and values, lists in order, nan never equal. */
export { pyEqual } from "../sdk/python/values.js";

/** Python's `key in container` for a JSON value: dict keys, list items, substrings; a TypeError otherwise. */
export function pyContains(container: unknown, key: string): boolean {
  if (isDict(container)) return Object.hasOwn(container, key);
  if (Array.isArray(container)) return container.some((item) => pyEqual(item, key));
  if (typeof container === "string") return container.includes(key);
  throw new TypeError(`argument of type '${container === null ? "NoneType" : typeof container}' is not iterable`);
}

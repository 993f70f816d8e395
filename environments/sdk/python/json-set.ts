// Python's set(json.loads(text)) as graphwalks and lc_niah need it: the keys of the set's elements, or an empty set where Python raises.
import { PythonJsonDecodeError, pyJsonLoads } from "./json.js";

type Parsed = string | boolean | null | Parsed[] | { dict: string[] } | { number: string; value: number };

/** A key per distinct element of a Python set (1 == 1.0 == True; each NaN from json.loads is its own object). */
function elementKey(value: Parsed, index: number): string | undefined {
  if (typeof value === "string") return `s:${value}`;
  if (value === null) return "None";
  if (typeof value === "boolean") return `n:${value ? 1 : 0}`;
  if (Array.isArray(value) || "dict" in value) return undefined; // unhashable: TypeError
  if (Number.isNaN(value.value)) return `nan:${index}`;
  if (/^-?\d+$/.test(value.number)) return `n:${BigInt(value.number)}`;
  if (Number.isInteger(value.value)) return `n:${BigInt(value.value)}`;
  return `n:${value.value}`;
}

/**
 * `set(json.loads(text))`, falling back to `set()` on JSONDecodeError or TypeError as graphwalks does: a list gives its
 * elements, a string its characters, a dict its keys; a number, None or a list holding a list or dict gives `set()`.
 * Only string elements are returned as they are; other elements keep their own keys, so the size is Python's.
 */
export function pySetOfJson(text: string): Set<string> {
  let parsed: Parsed;
  try {
    parsed = pyJsonLoads<Parsed>(text, { dict: (pairs) => ({ dict: pairs.map(([key]) => key) }), number: (raw, value) => ({ number: raw, value }) });
  } catch (error) {
    // Only JSONDecodeError is caught; json.loads' ValueError (an integer past 4300 digits) fails the verify as in Python.
    if (error instanceof PythonJsonDecodeError) return new Set();
    throw error;
  }
  const elements: Parsed[] =
    typeof parsed === "string"
      ? Array.from(parsed)
      : Array.isArray(parsed)
        ? parsed
        : parsed && typeof parsed === "object" && "dict" in parsed
          ? parsed.dict
          : [];
  const keys = new Set<string>();
  for (const [index, element] of elements.entries()) {
    const key = elementKey(element, index);
    if (key === undefined) return new Set();
    keys.add(key);
  }
  return keys;
}

/** The string elements' key, to compare predicted node names (always strings) with the expected set. */
export const stringKey = (node: string): string => `s:${node}`;

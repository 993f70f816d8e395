// Python's json.loads as NeMo Gym's structured_outputs sees it: dicts as PyDicts, failures as PyErrors.
import { PythonJsonDecodeError, PythonJsonLimitError, pyJsonLoads } from "../../sdk/python/json.js";
import { PyError, type PyValue } from "./value.js";

/** json.loads(text) as Python values (objects become dicts). Throws PyError("JSONDecodeError", …) like Python. */
export function jsonLoads(text: string): PyValue {
  try {
    return pyJsonLoads<PyValue>(text, { dict: (pairs) => new Map(pairs) });
  } catch (error) {
    if (error instanceof PythonJsonDecodeError) throw new PyError("JSONDecodeError", error.message);
    if (error instanceof PythonJsonLimitError) throw new PyError(error.pyType, error.message);
    throw error;
  }
}

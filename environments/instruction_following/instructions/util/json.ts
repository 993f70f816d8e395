// Whether Python's json.loads accepts a string (the shared scanner: NaN, Infinity and -Infinity where a value may stand).
import { pyJsonLoads } from "../../../sdk/python/json.js";

export function isValidPythonJson(text: string): boolean {
  try {
    pyJsonLoads<unknown>(text, { dict: () => null });
    return true;
  } catch {
    // Any decode error is the answer: the text is not JSON Python would accept.
    return false;
  }
}

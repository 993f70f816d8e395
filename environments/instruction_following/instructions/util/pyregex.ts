// Python `re` patterns for the IFEval checkers, which pass user-given keywords, markers and phrases to re as
// patterns (so "U.S." matches "U-S-" and "C++" is a possessive repeat): the shared translator, errors as re.error.
import { compilePythonRegex, isPythonRegexFailure, type PythonRegexOptions } from "../../../sdk/python/regex.js";
import { PyError } from "./python.js";

export interface PyRegex {
  /** A global RegExp; Python group n is the named group `g<n>`. */
  regex: RegExp;
  /** Capturing groups of the Python pattern (re.split returns them between the pieces). */
  groups: number;
}

/** Compile a Python `re` pattern; every match function uses the global flag. Raises PyError("re.error"). */
export function compilePy(pattern: string, options: PythonRegexOptions = {}): PyRegex {
  try {
    const { regex, groups } = compilePythonRegex(pattern, options, "g");
    return { regex, groups };
  } catch (error) {
    // Valid Python without a JS form is raised the same way: the instruction then counts as not followed.
    if (isPythonRegexFailure(error)) throw new PyError("re.error", error.message);
    throw error;
  }
}

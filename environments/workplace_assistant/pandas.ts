// The pandas idioms NeMo Gym's tools filter with: Series.str.contains (a regular expression), boolean masks, to_dict.
import { compilePythonRegex, isPythonRegexFailure } from "../sdk/index.js";
import { PyError, type PyValue } from "./python.js";
import type { Row } from "./tables.js";

/** re.compile(pattern, re.IGNORECASE), as `str.contains(pattern, case=False)` does; a bad pattern raises re.error. */
function compileIgnoringCase(pattern: PyValue): RegExp {
  if (typeof pattern !== "string") throw new PyError("TypeError", "first argument must be string or compiled pattern");
  try {
    return compilePythonRegex(pattern, { ignoreCase: true }).regex;
  } catch (error) {
    if (isPythonRegexFailure(error)) throw new PyError("re.error", error.message);
    throw error;
  }
}

/** rows[column].str.contains(pattern, case=False[, na=False]): NaN (null) for a cell that is not a str, unless `naFalse`. */
export function containsMask(rows: Row[], column: string, pattern: PyValue, naFalse = false): (boolean | null)[] {
  const regex = compileIgnoringCase(pattern);
  return rows.map((row) => {
    const cell = row[column] ?? null;
    return typeof cell === "string" ? regex.test(cell) : naFalse ? false : null;
  });
}

/** rows[mask]: a mask holding NaN raises, as pandas' boolean indexing does. */
export function where(rows: Row[], mask: (boolean | null)[]): Row[] {
  if (mask.includes(null)) throw new PyError("ValueError", "Cannot mask with non-boolean array containing NA / NaN values");
  return rows.filter((_, i) => mask[i]);
}

/** rows[rows[column].str.contains(pattern, case=False)]. */
export const whereContains = (rows: Row[], column: string, pattern: PyValue): Row[] => where(rows, containsMask(rows, column, pattern));

/** Series.str.contains(pattern, case=False) as a plain predicate on one str (the company directory's addresses). */
export function containsIgnoringCase(pattern: PyValue): (text: string) => boolean {
  const regex = compileIgnoringCase(pattern);
  return (text) => regex.test(text);
}

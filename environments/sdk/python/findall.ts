// Python `re` patterns (datasets' template_metadata.output_regex) compiled to JS RegExp, with Python's findall.
import { advancingRegExp, buildRegExp, pythonMatches, translatePythonRegex, type TranslatedRegex } from "./regex.js";

export { PythonRegexError, UnsupportedPythonRegex } from "./regex.js";

interface Compiled extends TranslatedRegex {
  /** The pattern as a global search. */
  search: RegExp;
  /** Lazily built: a match at exactly lastIndex that is not empty (Python's must_advance after an empty match). */
  advance: RegExp | null;
  pattern: string;
}

const cache = new Map<string, Compiled>();
const flagsOf = (compiled: TranslatedRegex, mode: string) => `${mode}u${compiled.ignoreCase ? "i" : ""}`;

/** Compile a Python pattern; throws PythonRegexError where Python's re.compile raises re.error. */
export function compilePython(pattern: string, ignoreCase: boolean): Compiled {
  const key = `${ignoreCase ? "i" : "-"}${pattern}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const translated = translatePythonRegex(pattern, { ignoreCase });
  const compiled: Compiled = { ...translated, search: buildRegExp(translated.source, flagsOf(translated, "g"), pattern), advance: null, pattern };
  // Datasets reuse a handful of templates; the bound only keeps a hostile stream from growing it.
  if (cache.size >= 256) cache.clear();
  cache.set(key, compiled);
  return compiled;
}

/**
 * Python's re.findall: whole matches without groups, the group with one, arrays (tuples) with several
 * (unmatched groups are ""). After an empty match Python still accepts a non-empty match at the same
 * position, where JS's own iteration would step past it.
 */
export function pythonFindall(pattern: string, text: string, ignoreCase: boolean): (string | string[])[] {
  const compiled = compilePython(pattern, ignoreCase);
  const { search, groups } = compiled;
  const found: (string | string[])[] = [];
  const advance = () => (compiled.advance ??= advancingRegExp(compiled.source, compiled.ignoreCase, pattern));
  for (const match of pythonMatches(search, advance, text)) {
    const named = match.groups;
    const group = (i: number) => named?.[`g${i}`] ?? "";
    if (groups === 0) found.push(match[0]);
    else if (groups === 1) found.push(group(1));
    else found.push(Array.from({ length: groups }, (_, i) => group(i + 1)));
  }
  return found;
}

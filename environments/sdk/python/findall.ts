// Python `re` patterns (datasets' template_metadata.output_regex) compiled to JS RegExp, with Python's findall.
import { buildRegExp, nextCodePoint, searchFrom, translatePythonRegex, type TranslatedRegex } from "./regex.js";

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

/** The non-empty-match variant: group 1 holds the rest of the input, and the match may not end where it started. */
function advanceRegex(compiled: Compiled): RegExp {
  // Python's groups are named, so the unnamed lookahead group is \1 and shifts no reference.
  compiled.advance ??= buildRegExp(`(?=([\\s\\S]*))(?:${compiled.source})(?!\\1$)`, flagsOf(compiled, "y"), compiled.pattern);
  return compiled.advance;
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
  let position = 0;
  let mustAdvance = false;
  while (position <= text.length) {
    let match: RegExpExecArray | null = null;
    if (mustAdvance) {
      const advance = advanceRegex(compiled);
      advance.lastIndex = position;
      match = advance.exec(text);
    }
    if (!match) {
      match = searchFrom(search, text, mustAdvance ? nextCodePoint(text, position) : position);
    }
    if (!match) break;
    const named = match.groups;
    const group = (i: number) => named?.[`g${i}`] ?? "";
    if (groups === 0) found.push(match[0]);
    else if (groups === 1) found.push(group(1));
    else found.push(Array.from({ length: groups }, (_, i) => group(i + 1)));
    const end = match.index + match[0].length;
    mustAdvance = end === match.index;
    position = end;
  }
  return found;
}

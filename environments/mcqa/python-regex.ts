// Python `re` patterns (datasets' template_metadata.output_regex) compiled to JS RegExp, with Python's findall.
import { UnsupportedPythonRegex } from "./python-regex-lexer.js";
import { Translator } from "./python-regex-translate.js";

export { PythonRegexError, UnsupportedPythonRegex } from "./python-regex-lexer.js";

interface Compiled {
  /** The pattern as a global search. */
  search: RegExp;
  /** Lazily built: a match at exactly lastIndex that is not empty (Python's must_advance after an empty match). */
  advance: RegExp | null;
  pattern: string;
  ignoreCase: boolean;
  groups: number;
}

const cache = new Map<string, Compiled>();

function build(source: string, flags: string, pattern: string): RegExp {
  try {
    return new RegExp(source, flags);
  } catch (error) {
    throw new UnsupportedPythonRegex(`Python pattern ${JSON.stringify(pattern)} has no JS translation: ${(error as Error).message}`);
  }
}

/** Compile a Python pattern; throws PythonRegexError where Python's re.compile raises re.error. */
export function compilePython(pattern: string, ignoreCase: boolean): Compiled {
  const key = `${ignoreCase ? "i" : "-"}${pattern}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const translator = new Translator(pattern, ignoreCase, 0);
  const { source, flags } = translator.translate();
  const compiled: Compiled = { search: build(source, flags, pattern), advance: null, pattern, ignoreCase, groups: translator.groups };
  // Datasets reuse a handful of templates; the bound only keeps a hostile stream from growing it.
  if (cache.size >= 256) cache.clear();
  cache.set(key, compiled);
  return compiled;
}

/** The non-empty-match variant: group 1 holds the rest of the input, and the match may not end where it started. */
function advanceRegex(compiled: Compiled): RegExp {
  if (!compiled.advance) {
    const { source, flags } = new Translator(compiled.pattern, compiled.ignoreCase, 1).translate();
    compiled.advance = build(`(?=([\\s\\S]*))(?:${source})(?!\\1$)`, flags.replace("g", "y"), compiled.pattern);
  }
  return compiled.advance;
}

const isLead = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
const isTrail = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;
/** Python works in code points: a position inside a surrogate pair is no position at all. */
const splitsPair = (text: string, index: number) => index > 0 && isLead(text.charCodeAt(index - 1)) && isTrail(text.charCodeAt(index));

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
    let offset = 0;
    if (mustAdvance) {
      const advance = advanceRegex(compiled);
      advance.lastIndex = position;
      match = advance.exec(text);
      offset = 1;
    }
    if (!match) {
      offset = 0;
      let from = mustAdvance ? position + (isLead(text.charCodeAt(position)) && isTrail(text.charCodeAt(position + 1)) ? 2 : 1) : position;
      for (;;) {
        if (from > text.length) break;
        search.lastIndex = from;
        match = search.exec(text);
        if (!match || !splitsPair(text, match.index)) break;
        from = match.index + 1;
        match = null;
      }
    }
    if (!match) break;
    if (groups === 0) found.push(match[0]);
    else if (groups === 1) found.push(match[1 + offset] ?? "");
    else found.push(match.slice(1 + offset, groups + 1 + offset).map((g) => g ?? ""));
    const end = match.index + match[0].length;
    mustAdvance = end === match.index;
    position = end;
  }
  return found;
}

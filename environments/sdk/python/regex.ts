// Python `re` patterns run in JavaScript: one translator (Python's syntax, errors and Unicode semantics) for every environment.
// Kept: Unicode \w \s \d \b, `.` excluding only "\n", `$` before a final newline, `{` literal unless a repeat, possessive
// repeats and atomic groups (3.11+), named groups, verbose/ASCII/scoped flags, fixed-width lookbehinds, and Python's
// errors as PythonRegexError. Valid Python without a JS form (scoped ignore-case, (?a) with (?i), conditionals, \N{…})
// raises UnsupportedPythonRegex.
import { PythonRegexError, UnsupportedPythonRegex, type Flags } from "./regex-lexer.js";
import { Translator } from "./regex-translate.js";

export { PythonRegexError, UnsupportedPythonRegex } from "./regex-lexer.js";

export interface PythonRegexOptions {
  /** re.IGNORECASE */
  ignoreCase?: boolean;
  /** re.MULTILINE */
  multiline?: boolean;
  /** re.DOTALL */
  dotAll?: boolean;
}

/** A translated pattern: JS u-mode source; Python group n is the JS named group `g<n>`. */
export interface TranslatedRegex {
  source: string;
  /** Whether the JS regex needs the i flag (re.IGNORECASE given or a leading (?i)). */
  ignoreCase: boolean;
  /** Capturing groups of the Python pattern. */
  groups: number;
  /** Python group names → group numbers. */
  names: ReadonlyMap<string, number>;
}

/** Translates a Python pattern; throws PythonRegexError where re.compile raises, UnsupportedPythonRegex where JS cannot follow. */
export function translatePythonRegex(pattern: string, options: PythonRegexOptions = {}): TranslatedRegex {
  const flags: Partial<Flags> = { ignoreCase: options.ignoreCase ?? false, multiline: options.multiline ?? false, dotAll: options.dotAll ?? false };
  const translator = new Translator(pattern, flags);
  const source = translator.translate();
  return { source, ignoreCase: translator.flags.ignoreCase, groups: translator.groups, names: translator.names };
}

/** new RegExp(source, flags), where a failure means the translation is outside what the JS engine takes. */
export function buildRegExp(source: string, flags: string, pattern: string): RegExp {
  try {
    return new RegExp(source, flags);
  } catch (error) {
    throw new UnsupportedPythonRegex(`Python pattern ${JSON.stringify(pattern)} has no JS translation: ${(error as Error).message}`);
  }
}

export interface CompiledPythonRegex extends TranslatedRegex {
  /** The pattern as a JS RegExp with the u flag, i when needed, and `extraFlags` ("g", "y"). */
  regex: RegExp;
}

const cache = new Map<string, CompiledPythonRegex>();

/**
 * Translated and compiled, cached by pattern, options and extra flags (patterns come from request data: the bound
 * keeps a long-lived isolate small). A global or sticky RegExp is shared: callers set lastIndex before each use.
 */
export function compilePythonRegex(pattern: string, options: PythonRegexOptions = {}, extraFlags = ""): CompiledPythonRegex {
  const key = `${options.ignoreCase ? "i" : ""}${options.multiline ? "m" : ""}${options.dotAll ? "s" : ""}/${extraFlags}/${pattern}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const translated = translatePythonRegex(pattern, options);
  const compiled = { ...translated, regex: buildRegExp(translated.source, `${extraFlags}u${translated.ignoreCase ? "i" : ""}`, pattern) };
  if (cache.size >= 500) cache.clear();
  cache.set(key, compiled);
  return compiled;
}

/** Whether an error is one this module raises for a pattern (Python's re.error, or no JS translation). */
export function isPythonRegexFailure(error: unknown): error is PythonRegexError | UnsupportedPythonRegex {
  return error instanceof PythonRegexError || error instanceof UnsupportedPythonRegex;
}

const isLead = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
const isTrail = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;

/** Python works in code points: a position inside a surrogate pair is no position at all. */
export const splitsPair = (text: string, index: number): boolean => index > 0 && isLead(text.charCodeAt(index - 1)) && isTrail(text.charCodeAt(index));

/** The code unit index one code point after `index`. */
export const nextCodePoint = (text: string, index: number): number => index + (isLead(text.charCodeAt(index)) && isTrail(text.charCodeAt(index + 1)) ? 2 : 1);

/**
 * The leftmost match of a global (`g`) regex at or after `from`, never one starting inside a surrogate pair: V8 tries
 * such positions for a pattern that starts with a lookaround (`\B` matched between the halves of U+10000), Python has none.
 */
export function searchFrom(regex: RegExp, text: string, from: number): RegExpExecArray | null {
  for (let at = from; at <= text.length; ) {
    regex.lastIndex = at;
    const match = regex.exec(text);
    if (!match || !splitsPair(text, match.index)) return match;
    at = match.index + 1;
  }
  return null;
}

const advancing = new Map<string, RegExp>();

/**
 * The non-empty-match variant of a translated pattern (Python's must_advance after an empty match): sticky, group 1
 * holds the rest of the input, and the match may not end where it started. Python's groups are named (g<n>), so the
 * unnamed group shifts no reference.
 */
export function advancingRegExp(source: string, ignoreCase: boolean, pattern: string): RegExp {
  const key = `${ignoreCase ? "i" : "-"}${source}`;
  let advance = advancing.get(key);
  if (!advance) {
    advance = buildRegExp(`(?=([\\s\\S]*))(?:${source})(?!\\1$)`, `yu${ignoreCase ? "i" : ""}`, pattern);
    if (advancing.size >= 256) advancing.clear();
    advancing.set(key, advance);
  }
  return advance;
}

/**
 * Python's matches of a pattern over a text, left to right (findall, finditer, sub): after an empty match a non-empty
 * one may still start at the same place (JS's own iteration steps past it), and none starts inside a surrogate pair.
 * `search` is the global translation; `advance` its advancingRegExp, made only if an empty match asks for it.
 */
export function* pythonMatches(search: RegExp, advance: () => RegExp, text: string): Generator<RegExpExecArray> {
  let position = 0;
  let mustAdvance = false;
  while (position <= text.length) {
    let match: RegExpExecArray | null = null;
    if (mustAdvance) {
      const sticky = advance();
      sticky.lastIndex = position;
      match = sticky.exec(text);
    }
    match ??= searchFrom(search, text, mustAdvance ? nextCodePoint(text, position) : position);
    if (!match) return;
    yield match;
    const end = match.index + match[0].length;
    mustAdvance = end === match.index;
    position = end;
  }
}

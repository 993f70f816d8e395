// Python's re.search / re.match / re.fullmatch through the translator: the match, its groups (None when unmatched)
// and its span, counted in code points as Python counts.
import { compilePythonRegex, type PythonRegexOptions, searchFrom } from "./regex.js";

/** A Match object's observable parts: group(0), groups() (null for an unmatched group) and span(). */
export interface PyMatch {
  group: string;
  groups: (string | null)[];
  span: [number, number];
}

const codePoints = (text: string, end: number) => [...text.slice(0, end)].length;

function toMatch(text: string, m: RegExpExecArray, groups: number): PyMatch {
  const start = codePoints(text, m.index);
  return {
    group: m[0],
    groups: Array.from({ length: groups }, (_, i) => m.groups?.[`g${i + 1}`] ?? null),
    span: [start, start + [...m[0]].length],
  };
}

/** re.search(pattern, text, flags): the leftmost match anywhere, or null. */
export function pySearch(pattern: string, text: string, options: PythonRegexOptions = {}): PyMatch | null {
  const { regex, groups } = compilePythonRegex(pattern, options, "g");
  const m = searchFrom(regex, text, 0);
  return m ? toMatch(text, m, groups) : null;
}

/** re.match(pattern, text, flags): a match starting at position 0, or null. */
export function pyMatch(pattern: string, text: string, options: PythonRegexOptions = {}): PyMatch | null {
  const { regex, groups } = compilePythonRegex(pattern, options, "y");
  regex.lastIndex = 0;
  const m = regex.exec(text);
  return m ? toMatch(text, m, groups) : null;
}

/** re.fullmatch(pattern, text, flags): a match of the whole text (backtracking until one ends at the end), or null. */
export function pyFullmatch(pattern: string, text: string, options: PythonRegexOptions = {}): PyMatch | null {
  // Global flags must stay first; under (?x) a trailing comment must not swallow the closing parenthesis.
  const flags = /^(?:\(\?[aiLmsux]+\))*/.exec(pattern)![0];
  const close = flags.includes("x") ? "\n)" : ")";
  const { regex, groups } = compilePythonRegex(`${flags}(?:${pattern.slice(flags.length)}${close}\\Z`, options, "y");
  regex.lastIndex = 0;
  const m = regex.exec(text);
  return m ? toMatch(text, m, groups) : null;
}

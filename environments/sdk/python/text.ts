// Python's str methods where they differ from JS's: Unicode whitespace (str.isspace), code-point length, splitlines.

/** The characters of Python's str.isspace() (and of `\s` in a str pattern), as a JS u-mode class body. */
export const PY_WHITESPACE = "\\t\\n\\v\\f\\r\\x1C-\\x1F \\x85\\xA0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000";
/** Python's `\w` in a str pattern (and str.isalnum() plus "_"): letters, numbers of every script, the underscore. */
export const PY_WORD = "\\p{L}\\p{N}_";

const LEADING = new RegExp(`^[${PY_WHITESPACE}]+`, "u");
const TRAILING = new RegExp(`[${PY_WHITESPACE}]+$`, "u");
const RUNS = new RegExp(`[${PY_WHITESPACE}]+`, "u");
const LINE_BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;

/** str.lstrip() / str.lstrip(chars): without chars, what str.isspace() calls whitespace (not JS's trim() set). */
export function pyLstrip(text: string, chars?: string): string {
  if (chars === undefined) return text.replace(LEADING, "");
  const set = new Set(chars);
  const points = [...text];
  let start = 0;
  while (start < points.length && set.has(points[start]!)) start++;
  return points.slice(start).join("");
}

/** str.rstrip() / str.rstrip(chars). */
export function pyRstrip(text: string, chars?: string): string {
  if (chars === undefined) return text.replace(TRAILING, "");
  const set = new Set(chars);
  const points = [...text];
  let end = points.length;
  while (end > 0 && set.has(points[end - 1]!)) end--;
  return points.slice(0, end).join("");
}

/** str.strip() / str.strip(chars). */
export function pyStrip(text: string, chars?: string): string {
  return pyRstrip(pyLstrip(text, chars), chars);
}

/** str.split() with no argument: runs of whitespace, no empty pieces. */
export function pySplit(text: string): string[] {
  const stripped = pyStrip(text);
  return stripped === "" ? [] : stripped.split(RUNS);
}

/** str.splitlines(): Python also breaks lines at \v, \f, \x1c–\x1e, \x85, U+2028 and U+2029. */
export function pySplitlines(text: string): string[] {
  return text.split(LINE_BREAK);
}

/** len(str): code points, not UTF-16 units. */
export function pyLen(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** str.isalpha(): non-empty and every character a letter (Lu, Ll, Lt, Lm, Lo). */
export function pyIsAlpha(text: string): boolean {
  return /^\p{L}+$/u.test(text);
}

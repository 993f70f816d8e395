// Python's str methods where they differ from JS's: Unicode whitespace (str.isspace), code-point length, isalpha.

/** The characters of Python's str.isspace() (and of `\s` in a str pattern), as a JS class body. */
export const PY_WHITESPACE = "\\t\\n\\v\\f\\r\\x1C-\\x1F \\x85\\xA0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000";

const LEADING = new RegExp(`^[${PY_WHITESPACE}]+`, "u");
const TRAILING = new RegExp(`[${PY_WHITESPACE}]+$`, "u");
const RUNS = new RegExp(`[${PY_WHITESPACE}]+`, "u");

/** str.strip() with no argument (JS's trim also strips U+FEFF and keeps U+001C–U+001F, U+0085). */
export function pyStrip(text: string): string {
  return text.replace(LEADING, "").replace(TRAILING, "");
}

/** str.strip(chars). */
export function pyStripChars(text: string, chars: string): string {
  const set = new Set(chars);
  const points = [...text];
  let start = 0;
  let end = points.length;
  while (start < end && set.has(points[start]!)) start++;
  while (end > start && set.has(points[end - 1]!)) end--;
  return points.slice(start, end).join("");
}

/** str.split() with no argument: runs of whitespace, no empty pieces. */
export function pySplit(text: string): string[] {
  const stripped = pyStrip(text);
  return stripped === "" ? [] : stripped.split(RUNS);
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

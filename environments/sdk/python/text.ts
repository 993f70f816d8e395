// Python's str methods where they differ from JS's: Unicode whitespace (str.isspace), code-point length, split, splitlines.
import { PyError } from "./errors.js";

/** The characters of Python's str.isspace() (and of `\s` in a str pattern), as a JS u-mode class body. */
export const PY_WHITESPACE = "\\t\\n\\v\\f\\r\\x1C-\\x1F \\x85\\xA0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000";
/** Python's `\w` in a str pattern (and str.isalnum() plus "_"): letters, numbers of every script, the underscore. */
export const PY_WORD = "\\p{L}\\p{N}_";

const LEADING = new RegExp(`^[${PY_WHITESPACE}]+`, "u");
const TRAILING = new RegExp(`[${PY_WHITESPACE}]+$`, "u");
const SPACE = new RegExp(`^[${PY_WHITESPACE}]$`, "u");
const ALL_SPACE = new RegExp(`^[${PY_WHITESPACE}]+$`, "u");
const LINE_BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/g;

/** str.isspace(): non-empty, every character whitespace in Python's sense (U+001C–U+001F and U+0085 are; U+FEFF is not). */
export function pyIsSpace(text: string): boolean {
  return ALL_SPACE.test(text);
}

/** str.lstrip() / str.lstrip(chars): without chars, what str.isspace() calls whitespace (not JS's trim() set). */
export function pyLstrip(text: string, chars?: string | null): string {
  if (chars === undefined || chars === null) return text.replace(LEADING, "");
  const set = new Set(chars);
  const points = [...text];
  let start = 0;
  while (start < points.length && set.has(points[start]!)) start++;
  return points.slice(start).join("");
}

/** str.rstrip() / str.rstrip(chars). */
export function pyRstrip(text: string, chars?: string | null): string {
  if (chars === undefined || chars === null) return text.replace(TRAILING, "");
  const set = new Set(chars);
  const points = [...text];
  let end = points.length;
  while (end > 0 && set.has(points[end - 1]!)) end--;
  return points.slice(0, end).join("");
}

/** str.strip() / str.strip(chars). */
export function pyStrip(text: string, chars?: string | null): string {
  return pyRstrip(pyLstrip(text, chars), chars);
}

/** str.split(sep=None, maxsplit=-1): without sep, runs of whitespace and no empty pieces; with sep, every occurrence. */
export function pySplit(text: string, sep?: string | null, maxsplit = -1): string[] {
  if (sep === undefined || sep === null) return splitWhitespace(text, maxsplit);
  if (sep === "") throw new PyError("ValueError", "empty separator");
  const pieces: string[] = [];
  let from = 0;
  for (let at = text.indexOf(sep); at !== -1 && (maxsplit < 0 || pieces.length < maxsplit); at = text.indexOf(sep, from)) {
    pieces.push(text.slice(from, at));
    from = at + sep.length;
  }
  pieces.push(text.slice(from));
  return pieces;
}

function splitWhitespace(text: string, maxsplit: number): string[] {
  const pieces: string[] = [];
  let i = 0;
  const isSpace = (k: number) => SPACE.test(text[k]!);
  for (;;) {
    while (i < text.length && isSpace(i)) i++;
    if (i >= text.length) return pieces;
    // After maxsplit pieces the rest is one piece, stripped only at its start.
    if (maxsplit >= 0 && pieces.length === maxsplit) {
      pieces.push(text.slice(i));
      return pieces;
    }
    const start = i;
    while (i < text.length && !isSpace(i)) i++;
    pieces.push(text.slice(start, i));
  }
}

/** str.splitlines(keepends=False): Python also breaks at \v, \f, \x1c–\x1e, \x85, U+2028, U+2029; no piece after a final break. */
export function pySplitlines(text: string, keepends = false): string[] {
  const lines: string[] = [];
  let from = 0;
  for (const match of text.matchAll(LINE_BREAK)) {
    const end = match.index + match[0].length;
    lines.push(text.slice(from, keepends ? end : match.index));
    from = end;
  }
  if (from < text.length) lines.push(text.slice(from));
  return lines;
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

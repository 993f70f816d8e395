// Python `re` syntax pieces for the translator in regex.ts: escapes, Unicode classes, repeat counts.
import { PyError } from "./value.js";

// re.PatternError (Python 3.13's name for re.error).
const PATTERN_ERROR = "PatternError";
// Python's `.`, `^`, `$`, `\A`, `\Z` differ from JS's (JS stops `.` at \r and U+2028; Python's `$` also matches before a final \n).
export const ANY = "[\\s\\S]";
export const START = "(?<![\\s\\S])";
export const END = "(?![\\s\\S])";
const SYNTAX = new Set([..."^$\\.*+?()[]{}|/"]);
// Python's str patterns are Unicode-aware: \d is any decimal digit, \w any letter or number, \s what str.isspace() says.
const SPACE = "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const UNICODE_CLASSES: Record<string, [string, string | undefined]> = {
  // escape → [outside a set, inside a set (undefined: no JS form there)]
  d: ["\\p{Nd}", "\\p{Nd}"],
  D: ["\\P{Nd}", "\\P{Nd}"],
  w: ["[\\p{L}\\p{N}_]", "\\p{L}\\p{N}_"],
  W: ["[^\\p{L}\\p{N}_]", undefined],
  s: [`[${SPACE}]`, SPACE],
  S: [`[^${SPACE}]`, undefined],
};
/** \W and \S inside a set: the set they are the complement of (the caller rewrites the set around it). */
export const COMPLEMENTED: Record<string, string> = { W: "\\p{L}\\p{N}_", S: SPACE };
const WORD = "[\\p{L}\\p{N}_]";
const BOUNDARY = `(?:(?<=${WORD})(?!${WORD})|(?<!${WORD})(?=${WORD}))`;
const NOT_BOUNDARY = `(?:(?<=${WORD})(?=${WORD})|(?<!${WORD})(?!${WORD}))`;
// Escapes Python knows that mean the same in JS.
const PASS_THROUGH = new Set([..."fnrtv"]);

export function unsupported(what: string): never {
  // Valid Python the JS engine cannot express; treated like an invalid pattern (validation error), a known gap.
  throw new PyError(PATTERN_ERROR, `unsupported in this port: ${what}`);
}

export function bad(message: string): never {
  throw new PyError(PATTERN_ERROR, message);
}

/** A literal character, escaped for the JS position it lands in. */
export function literal(ch: string, inClass: boolean): string {
  if (inClass) return "]\\^-[".includes(ch) ? `\\${ch}` : ch;
  return SYNTAX.has(ch) ? `\\${ch}` : ch;
}

export interface Flags {
  ignoreCase: boolean;
  dotAll: boolean;
  multiline: boolean;
  /** (?a): \d, \w, \s, \b back to ASCII. */
  ascii: boolean;
}

/** Translates one backslash escape starting at p[i] === "\\"; returns the JS text and the next index. */
export function escape(p: string, i: number, inClass: boolean, ascii: boolean): [string, number] {
  const d = p[i + 1];
  if (d === undefined) bad("bad escape (end of pattern)");
  if (d === "x" || d === "u" || d === "U") {
    const width = d === "x" ? 2 : d === "u" ? 4 : 8;
    const hex = p.slice(i + 2, i + 2 + width);
    if (!new RegExp(`^[0-9a-fA-F]{${width}}$`).test(hex)) bad(`incomplete escape \\${d}${hex}`);
    const cp = parseInt(hex, 16);
    if (cp > 0x10ffff) bad(`bad escape \\${d}${hex}`);
    return [literal(String.fromCodePoint(cp), inClass), i + 2 + width];
  }
  if (d === "0" || (inClass && /[0-7]/.test(d))) {
    const octal = /^[0-7]{1,3}/.exec(p.slice(i + 1))![0];
    return [literal(String.fromCodePoint(parseInt(octal, 8)), inClass), i + 1 + octal.length];
  }
  if (/[1-9]/.test(d)) {
    // Three octal digits are a character; otherwise (outside a set) a group reference, which the caller handles.
    const octal = /^[0-7]{3}/.exec(p.slice(i + 1));
    if (octal) return [literal(String.fromCodePoint(parseInt(octal[0], 8)), inClass), i + 4];
    bad(`bad escape \\${d}`);
  }
  if (d === "a") return ["\\x07", i + 2];
  if (d === "N") unsupported("\\N{...}");
  if (!inClass && d === "A") return [START, i + 2];
  if (!inClass && d === "Z") return [END, i + 2];
  if (d === "b") return [inClass ? "\\x08" : ascii ? "\\b" : BOUNDARY, i + 2];
  if (d === "B" && !inClass) return [ascii ? "\\B" : NOT_BOUNDARY, i + 2];
  const unicodeClass = UNICODE_CLASSES[d];
  if (unicodeClass) {
    if (ascii) return [`\\${d}`, i + 2];
    const form = inClass ? unicodeClass[1] : unicodeClass[0];
    // \W and \S inside a set have no JS form there; characterSet() handles them before calling here.
    if (form === undefined) bad(`\\${d} inside a character set`);
    return [form, i + 2];
  }
  if (PASS_THROUGH.has(d)) return [`\\${d}`, i + 2];
  if (/[A-Za-z]/.test(d)) bad(`bad escape \\${d}`);
  return [literal(d, inClass), i + 2];
}

/** `{m}`, `{m,}`, `{,n}`, `{m,n}` at p[i]; Python reads anything else as a literal "{". */
export function quantifier(p: string, i: number): [string, number] | undefined {
  const match = /^\{(\d*)(?:(,)(\d*))?\}/.exec(p.slice(i));
  if (!match || (match[1] === "" && match[2] === undefined)) return undefined;
  const [whole, lo, comma, hi] = match;
  const min = lo === "" ? "0" : lo!;
  if (comma === undefined) return [`{${min}}`, i + whole.length];
  if (hi !== "" && Number(hi) < Number(min)) bad("min repeat greater than max repeat");
  return [`{${min},${hi ?? ""}}`, i + whole.length];
}


// LaTeX answer clean-up before parsing: latex2sympy2_extended 1.10.2's normalize_latex as math_verify 0.8.0 configures it.
// Behaviour (patterns, the unit word list and their order) follows that MIT-licensed library so the
// same answers reach the parser; the regexes are rewritten for JavaScript.

export type BoxedMode = "all" | "last" | "none";

/** `\left(` → `(` and the like, so the parser sees plain delimiters. */
const LEFT =
  /\\m?left(\\\{|\{|\\\||\||\[|\(|\\rbracl|\\lgroup|\\lbrace|\\lbrack|\\vert|\\lvert|\\lceil|\\lfloor|\\vert|\\lvert|\\langle|\\llcorner|\\ulcorner)/g;
const RIGHT =
  /\\m?right(\\\}|\}|\\\||\||\]|\)|\\rbrack|\\rgroup|\\rbrace|\\rbrack|\\vert|\\rvert|\\rceil|\\rfloor|\\vert|\\rvert|\\rangle|\\lrcorner|\\urcorner)/g;

/**
 * Words removed from the end of an answer as units. The first entry really is "integerpoint": the
 * library's list lacks a comma there, and it is kept so the same answers lose the same words.
 */
const UNITS = [
  "integerpoint",
  "feet",
  "sue",
  "digit",
  "pound",
  "meal",
  "edge",
  "student",
  "children ticket",
  "multiple",
  "east",
  "degree",
  "mph",
  "kmph",
  "ft",
  "m square",
  " m east",
  "sq m",
  "deg",
  "mile",
  "q .",
  "monkey",
  "prime",
  "ratio",
  "profit of rs",
  "rd",
  "o",
  "gm",
  "p . m",
  "lb",
  "tile",
  "per",
  "dm",
  "lt",
  "gain",
  "ab",
  "way",
  "west",
  "a .",
  "b .",
  "c .",
  "d .",
  "e .",
  "f .",
  "g .",
  "h .",
  "t",
  "h",
  "no change",
  "men",
  "soldier",
  "pie",
  "bc",
  "excess",
  "st",
  "inches",
  "noon",
  "cent",
  "by",
  "gal",
  "kmh",
  "c",
  "acre",
  "rise",
  "a . m",
  "th",
  "π r 2",
  "sq",
  "mark",
  "l",
  "toy",
  "coin",
  "sq . m",
  "gallon",
  "° f",
  "profit",
  "minw",
  "yr",
  "women",
  "am",
  "pm",
  "hr",
  "cu cm",
  "square",
  "v â € ™",
  "are",
  "rupee",
  "rounds",
  "cubic",
  "cc",
  "mtr",
  "s",
  "ohm",
  "number",
  "kmph",
  "day",
  "hour",
  "minute",
  "min",
  "second",
  "man",
  "woman",
  "sec",
  "cube",
  "mt",
  "sq inch",
  "mp",
  "∏ cm ³",
  "hectare",
  "more",
  "sec",
  "unit",
  "cu . m",
  "cm 2",
  "rs .",
  "rs",
  "kg",
  "g",
  "month",
  "km",
  "m",
  "cm",
  "mm",
  "apple",
  "liter",
  "loss",
  "yard",
  "pure",
  "year",
  "increase",
  "decrease",
  "d",
  "less",
  "Surface",
  "litre",
  "pi sq m",
  "s .",
  "metre",
  "meter",
  "inch",
];
// The words are regex source in the library (so "q ." matches "q" + any character); kept that way.
const UNIT_AT_END = new RegExp(`(\\d|\\}|\\s)\\s*(?:(?:${UNITS.join("|")})(?:s|es)?)\\s*$`);

const TO_REMOVE = /\\mathrm\{th\}|\\!\s*|\\text\s*\{\s*\}|\\\$|\$|(?<!\\)["']|\\displaystyle/g;

/** Replacements tried left to right at each position, the first alternative that matches wins. */
const REPLACEMENTS: [string, string][] = [
  ["\\\\math(?:rm|it|bf)", "\\text"],
  ["\\\\text(?:normal|bf|it|rm)", "\\text"],
  ["\\\\(?:d|t|c)frac", "\\frac"],
  ["\\s\\.", " 0."],
  ["\\{\\.", "{0."],
  ["~=", "\\approx"],
  ["\\s*\\{\\s*,\\s*\\}", ","],
  ["(?<![a-zA-Z])(?:,?\\s*(?:and|or))(?![a-zA-Z])", ","],
  ["(?:,?\\s*\\\\text\\{\\s*(?:and|or)\\s*\\})", ","],
  ["(?<!\\\\)\\\\\\s", " "],
  ["infinity", "\\infty"],
  [",?(?:\\\\ldots)", " "],
  ["\\s*percentage", "\\%"],
  ["\\\\text\\{percentage\\}", "\\%"],
  ["\\s*percent", "\\%"],
  ["\\\\text\\{percent\\}", "\\%"],
  ["\\s*pct", "\\%"],
  ["\\\\text\\{pct\\}", "\\%"],
  ["(?:(?<!\\\\)inf(?!inity))", "\\infty"],
  [" sqrt", "\\sqrt"],
];
const REPLACE = new RegExp(REPLACEMENTS.map(([pattern], i) => `(?<r${i}>${pattern})`).join("|"), "g");

const COMMAND_SLASH = /\\\\(?=[a-zA-Z])/g;
const PERMUTATION = /\(([a-zA-Z0-9+\-*/\\ ]+?)\)_\{([a-zA-Z0-9+\-*/\\ ]+?)\}/g;
const UNIT_SUPERSCRIPT = /(\\(?:text|mbox)\{.*?\})(\^\d|\{\^\d\})?$/;

const MALFORMED: [RegExp, string][] = [
  [/\^\s?\((.*?)\)/g, "^{$1}"],
  [/sqrt\s?\((.*?)\)/g, "\\sqrt{$1}"],
  [/\\frac\s?(\d)\s?(\d+)/g, "\\frac{$1}{$2}"],
  [/\\log_\s?(\d)\s?(\d+)/g, "\\log_{$1}{$2}"],
  [/\\frac\s?\{(.*?)\}\s?(\d)/g, "\\frac{$1}{$2}"],
  [/\\frac\s?(\d)\s?\{(.*?)\}/g, "\\frac{$1}{$2}"],
  [/\\sqrt\s?(\d)/g, "\\sqrt{$1}"],
];

/** Python's len: code points. */
const pyLen = (text: string) => [...text].length;
const isSpace = (ch: string) => /\s/.test(ch);

/** The closing brace matching the one at `open`, searching before `limit`. */
function closingBrace(text: string, open: number, limit: number): number | null {
  let depth = 1;
  for (let i = open + 1; i < limit; i++) {
    if (text[i] === "{") depth++;
    else if (text[i] === "}" && --depth === 0) return i;
  }
  return null;
}

/** Last occurrence of `needle` lying wholly before `end` (Python's rfind(needle, 0, end)). */
function lastBefore(text: string, needle: string, end: number): number {
  return end < needle.length ? -1 : text.lastIndexOf(needle, end - needle.length);
}

/**
 * The contents of `\boxed{…}` / `\fbox{…}`, found right to left. "all" joins every box with commas;
 * "last" also takes earlier boxes when they sit close (or a separator away) from the next one,
 * so "\boxed{1} and \boxed{2}" reads as "1,2". An unclosed box yields the rest of the text.
 */
export function boxedContent(text: string, mode: "all" | "last"): string {
  const results: string[] = [];
  let current = text.length;
  let limit = text.length;
  let laterStart: number | null = null;
  for (;;) {
    const boxed = lastBefore(text, "\\boxed", current);
    const fbox = lastBefore(text, "\\fbox", current);
    if (boxed < 0 && fbox < 0) break;
    const start = Math.max(boxed, fbox);
    let next = start + (boxed > fbox ? 6 : 5);
    while (next < limit && isSpace(text[next]!)) next++;
    if (next >= limit) break;
    if (text[next] !== "{") {
      if (results.length === 0) results.push(text.slice(next));
      break;
    }
    const close = closingBrace(text, next, limit);
    if (close === null) {
      if (results.length === 0) results.push(text.slice(next));
      break;
    }
    const content = text.slice(next + 1, close).trim();
    if (mode === "last" && laterStart !== null) {
      const between = text.slice(close + 1, laterStart);
      const later = results[results.length - 1] ?? "";
      const near = pyLen(between) < 10;
      const separated = content !== later && pyLen(between) < 70 && /and|or|,|;/.test(between);
      if (!near && !separated) break;
    }
    results.push(content);
    laterStart = start;
    limit = start;
    current = start;
  }
  return results.length === 0 ? text : results.reverse().join(",");
}

/** `\frac12` → `\frac{1}{2}` (the MATH dataset's fix, as the library carries it). */
function fixFracs(text: string): string {
  const parts = text.split("\\frac");
  let out = parts[0]!;
  for (const raw of parts.slice(1)) {
    const part = raw.replace(/^\s+/, "");
    out += "\\frac";
    if (part.startsWith("{")) out += part;
    else if (part.length < 2) return text;
    else if (part[1] !== "{") out += `{${part[0]}}{${part[1]}}${part.slice(2)}`;
    else out += `{${part[0]}}${part.slice(1)}`;
  }
  return out;
}

/** `2/3` → `\frac{2}{3}` when the whole answer is two canonical integers. */
function fixSlash(text: string): string {
  const m = /^(-?(?:[1-9]\d*|0))\/(-?(?:[1-9]\d*|0))$/.exec(text);
  return m && m[1] !== "-0" && m[2] !== "-0" ? `\\frac{${m[1]}}{${m[2]}}` : text;
}

/** `\sqrt3` → `\sqrt{3}`. */
function fixSqrt(text: string): string {
  if (!text.includes("\\sqrt")) return text;
  const parts = text.split("\\sqrt");
  let out = parts[0]!;
  for (const raw of parts.slice(1)) {
    const part = raw.replace(/^\s+/, "");
    out += part.length > 0 && part[0] !== "{" && part[0] !== "[" ? `\\sqrt{${part[0]}}${part.slice(1)}` : `\\sqrt${part}`;
  }
  return out;
}

function replaceInLatex(text: string): string {
  return text.replace(REPLACE, (...args: unknown[]) => {
    const groups = args[args.length - 1] as Record<string, string | undefined>;
    const index = REPLACEMENTS.findIndex((_, i) => groups[`r${i}`] !== undefined);
    return REPLACEMENTS[index]![1];
  });
}

/** normalize_latex with basic_latex, units, malformed_operators and nits on, and the given boxed mode. */
export function normalizeLatex(input: string, boxed: BoxedMode): string {
  let text = boxed === "none" ? input : boxedContent(input, boxed);

  text = text.replaceAll("\\mathrm{T}", "T").replaceAll("\\mathrm{d}", "d").replaceAll("{\\rm d}", "d");
  text = text.replaceAll("\\left[\\begin{matrix}", "\\begin{bmatrix}").replaceAll("\\end{matrix}\\right]", "\\end{bmatrix}");
  text = text.replace(LEFT, "$1").replace(RIGHT, "$1");
  text = text.replace(PERMUTATION, "\\frac{($1)!}{(($1)-($2))!}");
  text = text.replace(TO_REMOVE, "");
  text = replaceInLatex(text);
  text = text.replaceAll("\n", " ").replaceAll("\t", " ");
  if (!text.includes("matrix")) text = text.replace(COMMAND_SLASH, "\\");

  // Units: a trailing \text{…} (with a digit superscript), then up to two trailing unit words.
  const withoutText = text.replace(UNIT_SUPERSCRIPT, "").trim();
  if (withoutText !== "" && withoutText !== text) text = withoutText;
  for (let i = 0; i < 2; i++) {
    const withoutUnit = text.replace(UNIT_AT_END, "$1");
    if (withoutUnit !== "" && withoutUnit !== text) text = withoutUnit;
  }

  if (text.startsWith(".")) text = `0${text}`;
  if (text === "0.5") text = "\\frac{1}{2}";

  for (const [pattern, replacement] of MALFORMED) text = text.replace(pattern, replacement);
  text = text.replaceAll(" sqrt", "\\sqrt");
  text = fixSqrt(text);
  text = fixFracs(text);
  text = fixSlash(text);
  return text.trim();
}

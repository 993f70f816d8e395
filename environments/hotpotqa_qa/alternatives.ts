// NeMo Gym's hotpotqa_qa ground-truth handling: surface-form alternatives, unreliable-answer filtering, substring matches.
import { pyLen, pyRstrip, pySplit, pyStrip, PY_WORD } from "../sdk/python/text.js";
import { pySub } from "../sdk/python/sub.js";
import { pyIsDigit, pyIsUpper, pySearch, pySlice } from "./python.js";

const NUM_WORDS: Record<string, string> = {
  one: "1",
  two: "2",
  three: "3",
  four: "4",
  five: "5",
  six: "6",
  seven: "7",
  eight: "8",
  nine: "9",
  ten: "10",
  eleven: "11",
  twelve: "12",
  thirteen: "13",
  fourteen: "14",
  fifteen: "15",
  sixteen: "16",
  seventeen: "17",
  eighteen: "18",
  nineteen: "19",
  twenty: "20",
  first: "1st",
  second: "2nd",
  third: "3rd",
  fourth: "4th",
  fifth: "5th",
  nineteenth: "19th",
  twentieth: "20th",
  "twenty-first": "21st",
};
const NUM_DIGITS: Record<string, string> = Object.fromEntries(Object.entries(NUM_WORDS).map(([k, v]) => [v, k]));
const MAX_GT_LENGTH = 40;
const MIN_ALT_LENGTH = 3;
const STOPWORDS = new Set(
  "the a an of in on at for and or to by is was are were be been with from that this it its his her my our their no not but if as into about than then".split(
    " ",
  ),
);
const ARTICLES = ["the ", "a ", "an "];

/** Unicode spaces, dashes and quotes as ASCII, runs of spaces collapsed, then stripped. */
export function normalizeUnicode(text: string): string {
  let s = text.replace(/[\u202f\u00a0\u2009\u200a\u2002\u2003]/g, " ");
  s = s.replace(/[\u2010-\u2015]/g, "-");
  s = s.replace(/[\u2019\u2018]/g, "'").replace(/[\u201c\u201d]/g, '"');
  while (s.includes("  ")) s = s.replaceAll("  ", " ");
  return pyStrip(s);
}

const collapse = (text: string) => pySub(String.raw`\s+`, text, () => " ");
const withoutArticle = (text: string) => {
  const prefix = ARTICLES.find((p) => text.toLowerCase().startsWith(p));
  return prefix === undefined ? null : pySlice(text, pyLen(prefix));
};

/** `_gt_alternatives`: the ground truth's accepted surface forms, sorted by code point (rule tags are not kept). */
export function gtAlternatives(gt: string): string[] {
  const alts = new Set([gt]);
  const bare = withoutArticle(gt);
  if (bare !== null) alts.add(bare);

  const stripped = pyStrip(gt.replace(/["\u201c\u201d]/g, ""));
  if (stripped && stripped !== gt) alts.add(stripped);

  if (gt.includes("(")) {
    const noParens = collapse(pyStrip(pySub(String.raw`\s*\([^)]*\)\s*`, gt, () => " ")));
    if (noParens && noParens !== gt) alts.add(noParens);
    pySub(String.raw`\(([^)]+)\)`, gt, ([inner]) => {
      const trimmed = pyStrip(inner!);
      if (pyLen(trimmed) > 1) alts.add(trimmed);
      return "";
    });
  }

  const low = pyStrip(gt.toLowerCase());
  if (Object.hasOwn(NUM_WORDS, low)) alts.add(NUM_WORDS[low]!);
  if (Object.hasOwn(NUM_DIGITS, low)) alts.add(NUM_DIGITS[low]!);

  const joinThousands = (text: string) => pySub(String.raw`(\d),(\d{3})`, text, ([a, b]) => `${a}${b}`);
  let noCommas = joinThousands(gt);
  while (noCommas !== gt && pySearch(String.raw`(\d),(\d{3})`, noCommas)) noCommas = joinThousands(noCommas);
  if (noCommas !== gt) alts.add(noCommas);

  const last = Array.from(gt).at(-1);
  if (last !== undefined && ".,;:!?".includes(last)) alts.add(pyRstrip(pySlice(gt, 0, -1)));

  if (gt.includes(".")) {
    const noDots = pySub(String.raw`(?<!\d)\.(?!\d)`, gt, () => "");
    if (noDots && pyLen(noDots) > 1 && noDots !== gt) alts.add(noDots);
  }
  if (gt.includes("-") && !gt.startsWith("-")) {
    const noHyphen = pyStrip(collapse(gt.replaceAll("-", " ")));
    if (noHyphen !== gt) alts.add(noHyphen);
  }
  if (gt.includes(" & ")) alts.add(gt.replaceAll(" & ", " and "));
  const lowered = gt.toLowerCase();
  const andAt = lowered.indexOf(" and ");
  if (andAt >= 0) {
    const idx = pyLen(lowered.slice(0, andAt));
    alts.add(`${pySlice(gt, 0, idx)} & ${pySlice(gt, idx + 5)}`);
  }

  for (const alt of [...alts]) {
    const bareAlt = withoutArticle(alt);
    if (bareAlt !== null) alts.add(bareAlt);
  }

  const normed = new Set<string>();
  for (const alt of alts) {
    const a = collapse(pyStrip(alt));
    if (a && (pyLen(a) >= MIN_ALT_LENGTH || a === pyStrip(gt) || pyIsDigit(a))) normed.add(a);
  }
  return [...normed].sort(byCodePoint);
}

function byCodePoint(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0)!);
  const y = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

function isMultiWordName(gt: string): boolean {
  const parts = pySplit(pyRstrip(pyStrip(gt), "."));
  const capitalised = (p: string) => pyIsUpper(Array.from(p)[0]!);
  if (parts.length === 3 || parts.length === 4) return parts.every(capitalised) && parts.every((p) => !STOPWORDS.has(p.toLowerCase()));
  if (parts.length === 5 || parts.length === 6) return parts.filter((p) => capitalised(p) && !STOPWORDS.has(p.toLowerCase())).length >= 3;
  return false;
}

/** `normalize_gt`'s verdict: whether the ground truth is unreliable for substring matching, and why. */
export function shouldRemove(gt: string): [boolean, "" | "gt_too_long" | "multi_word_name"] {
  if (pyLen(gt) > MAX_GT_LENGTH) return [true, "gt_too_long"];
  if (isMultiWordName(gt)) return [true, "multi_word_name"];
  return [false, ""];
}

/** Lenient: some alternative occurs in the (normalised) answer. */
export function isCorrect(alternatives: string[], answer: string): boolean {
  const ans = normalizeUnicode(answer.toLowerCase());
  return alternatives.some((alt) => ans.includes(normalizeUnicode(alt.toLowerCase())));
}

const escapeForRegExp = (text: string) => text.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");

/** Strict: short alternatives need word boundaries; in a long answer (>80) the match must start by position 40. */
export function isCorrectStrict(alternatives: string[], answer: string): boolean {
  const ans = normalizeUnicode(answer.toLowerCase());
  const ansLen = pyLen(ans);
  for (const alt of alternatives) {
    const norm = normalizeUnicode(alt.toLowerCase());
    if (!norm || !ans.includes(norm)) continue;
    if (pyLen(norm) <= 4 && !new RegExp(`(?<![${PY_WORD}])${escapeForRegExp(norm)}(?![${PY_WORD}])`, "u").test(ans)) continue;
    if (ansLen > 80 && pyLen(ans.slice(0, ans.indexOf(norm))) > 40) continue;
    return true;
  }
  return false;
}

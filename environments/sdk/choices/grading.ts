// Multiple-choice answer extraction shared by mcqa and gpqa_diamond: the grading modes of NeMo Gym's mcqa server (boxed letter, option text, "Answer:" lines).
import { pyIsAlpha, pyLen, pySplit, pyStrip, PY_WHITESPACE } from "../python/text.js";

/** A row's `options`: single-key objects mapping a letter to its option text (null texts are ignored). */
export type Options = Record<string, string | null>[] | null | undefined;

const S = `[${PY_WHITESPACE}]`;
/** Python's \w, for its Unicode-aware \b. */
const W = "[\\p{L}\\p{N}_]";

const CHOICE_LETTER = /(?<![A-Za-z])([A-Za-z])(?![A-Za-z])/g;
const BOXED_LETTER_ONLY = /^[^A-Za-z]*([A-Z])[^A-Za-z]*$/;
// "." and "-" are looser label delimiters than ":" and ")" ("E. coli" would read as E); NeMo Gym accepts them.
const BOXED_LETTER_LABEL = new RegExp(`^${S}*([A-Z])${S}*[:).\\-]`, "u");
const ANSWER_COLON = new RegExp(`answer${S}*:${S}*([^\\n]+)`, "iu");
const ANSWER_COLON_PAYLOAD = new RegExp(`[*_]{0,2}Answer[*_]{0,2}${S}*:[*_${PY_WHITESPACE}]{0,2}([^\\n]+)`, "giu");
const LATEX_TEXT_WRAP = new RegExp(`^\\\\text\\{${S}*([\\s\\S]*?)${S}*\\}$`, "u");
const LEADING_CHOICE_LETTER = /^([a-zA-Z])(?![a-zA-Z0-9])/;
const LAST_STANDALONE_CHOICE_LETTER = new RegExp(`(?<!${W})[A-Z](?!${W})(?![\\s\\S]*(?<!${W})[A-Z](?!${W}))`, "u");
const CHOICE_LIST_SEPARATOR = new RegExp(`^(?:${S}*[/|&,;]${S}*|${S}+(?:or|and)${S}+|${S}+)$`, "iu");

/** Localised answer letters (Arabic, Bengali, full-width) as Latin ones, as NeMo Gym's MMMLU handling does. */
const LOCALISED_LETTERS: [string, string][] = [
  ["أ", " A"],
  ["ب", " B"],
  ["ج", " C"],
  ["د", " D"],
  ["অ", " A"],
  ["ব", " B"],
  ["ড", " C"],
  ["ঢ", " D"],
  ["Ａ", " A"],
  ["Ｂ", " B"],
  ["Ｃ", " C"],
  ["Ｄ", " D"],
];

export function normalizeExtractedAnswer(text: string): string {
  let out = text;
  for (const [from, to] of LOCALISED_LETTERS) out = out.replaceAll(from, to);
  return pyStrip(out);
}

/** Lowercase and collapse whitespace, for option-text comparisons. */
export function normalizeForMatch(text: string): string {
  return pySplit(text.toLowerCase()).join(" ");
}

/** Upper-cased single-letter option keys whose text is not null. */
export function allowedLetters(options: Options): Set<string> {
  const letters = new Set<string>();
  for (const entry of options ?? []) {
    for (const [key, value] of Object.entries(entry)) {
      if (pyLen(key) === 1 && pyIsAlpha(key) && value !== null) letters.add(key.toUpperCase());
    }
  }
  return letters;
}

/** Everything inside the LAST \boxed{...}, braces counted; null when there is none or it never closes. */
export function boxedInner(text: string): string | null {
  const marker = "\\boxed{";
  const start = text.lastIndexOf(marker);
  if (start === -1) return null;
  let depth = 1;
  for (let i = start + marker.length; i < text.length; i++) {
    const ch = text[i];
    if (ch === "{") depth++;
    else if (ch === "}" && --depth === 0) return text.slice(start + marker.length, i);
  }
  return null;
}

/** Unwrap successive \text{...} wrappers around the whole string. */
export function stripLatexWrappers(text: string): string {
  let out = text;
  for (let m = LATEX_TEXT_WRAP.exec(out); m; m = LATEX_TEXT_WRAP.exec(out)) out = m[1]!;
  return out;
}

/** strict_single_letter_boxed: a bare letter, or a letter then a label delimiter, in the last box. */
export function strictBoxedLetter(text: string, allowed: Set<string>): string | null {
  const raw = boxedInner(text);
  if (raw === null) return null;
  const inner = stripLatexWrappers(pyStrip(raw));
  const letter = BOXED_LETTER_ONLY.exec(inner)?.[1] ?? BOXED_LETTER_LABEL.exec(inner)?.[1];
  return letter !== undefined && allowed.has(letter) ? letter : null;
}

/** Option entries as (upper-cased letter, text) pairs, in order. */
function optionEntries(options: Options): [string, string | null][] {
  return (options ?? []).flatMap((entry) => Object.entries(entry).map(([key, value]): [string, string | null] => [key, value]));
}

/** lenient_boxed's fallback: the one option whose text occurs in the last box (none when several do). */
export function matchOptionText(text: string, options: Options, allowed: Set<string>): string | null {
  const raw = boxedInner(text);
  if (raw === null) return null;
  const inner = pyStrip(raw);
  const candidates = [inner, stripLatexWrappers(inner)].map(normalizeForMatch);
  const matched = new Set<string>();
  for (const [key, value] of optionEntries(options)) {
    if (value === null || pyLen(key) !== 1 || !allowed.has(key.toUpperCase())) continue;
    const option = normalizeForMatch(value);
    if (option && candidates.some((candidate) => candidate.includes(option))) matched.add(key.toUpperCase());
  }
  return matched.size === 1 ? [...matched][0]! : null;
}

/** Option text equal (normalised) to the candidate, first in option order. */
function optionWithText(candidate: string, options: Options, allowed: Set<string>): string | null {
  const wanted = normalizeForMatch(candidate);
  for (const [key, value] of optionEntries(options)) {
    const upper = key.toUpperCase();
    if (!allowed.has(upper)) continue;
    // NeMo Gym lowercases the text unguarded here; a null text beside an allowed duplicate key raises there too.
    if (value === null) throw new TypeError("'NoneType' object has no attribute 'lower'");
    if (normalizeForMatch(value) === wanted) return upper;
  }
  return null;
}

/** lenient_answer_colon: the first "Answer: X" line, as a letter or an option's exact text. */
export function answerColon(text: string, options: Options, allowed: Set<string>): string | null {
  const m = ANSWER_COLON.exec(text);
  if (!m) return null;
  const candidate = pyStrip(stripLatexWrappers(m[1]!));
  if (pyLen(candidate) === 1 && pyIsAlpha(candidate) && allowed.has(candidate.toUpperCase())) return candidate.toUpperCase();
  return optionWithText(candidate, options, allowed);
}

/** Whether distinct allowed letters appear as a list ("A/B", "A or B", "A, B"): an ambiguous answer. */
function ambiguousChoiceList(text: string, allowed: Set<string>): boolean {
  const letters = [...text.matchAll(CHOICE_LETTER)]
    .filter((m) => allowed.has(m[1]!.toUpperCase()))
    .map((m) => ({ letter: m[1]!.toUpperCase(), start: m.index, end: m.index + m[1]!.length }));
  return letters.some((left, i) => {
    const right = letters[i + 1];
    return right !== undefined && left.letter !== right.letter && CHOICE_LIST_SEPARATOR.test(text.slice(left.end, right.start));
  });
}

/** One allowed letter from an "Answer:" payload: the whole payload, its leading letter, or its last standalone capital. */
export function choiceLetter(payload: string, allowed: Set<string>): string | null {
  const candidate = pyStrip(pyStrip(normalizeExtractedAnswer(payload)), "*_` \t\n\r.,;:");
  if (ambiguousChoiceList(candidate, allowed)) return null;
  let letter: string | undefined;
  if (pyLen(candidate) === 1) letter = candidate;
  else letter = LEADING_CHOICE_LETTER.exec(candidate)?.[1] ?? LAST_STANDALONE_CHOICE_LETTER.exec(candidate)?.[0];
  if (!letter) return null;
  const upper = letter.toUpperCase();
  return allowed.has(upper) ? upper : null;
}

/** lenient_answer_colon_md: the last markdown-aware "Answer:" payload that yields a letter. */
export function answerColonMarkdown(text: string, allowed: Set<string>): string | null {
  const payloads = [...text.matchAll(ANSWER_COLON_PAYLOAD)].map((m) => m[1]!);
  for (let i = payloads.length - 1; i >= 0; i--) {
    const letter = choiceLetter(payloads[i]!, allowed);
    if (letter !== null) return letter;
  }
  return null;
}

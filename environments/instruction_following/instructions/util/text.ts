// IFEval's text helpers (instructions_util): its regex sentence splitter, word count, and Python-style
// findall / split over a translated pattern.
import { WORD, WS, strip } from "./python.js";

const WORD_RUN = new RegExp(`[${WORD}]+`, "gu");

/** count_words: nltk's RegexpTokenizer(r"\w+") — runs of Unicode word characters. */
export function countWords(text: string): number {
  return text.match(WORD_RUN)?.length ?? 0;
}

const S = `[${WS}]`;
const STARTERS = `(Mr|Mrs|Ms|Dr|Prof|Capt|Cpt|Lt|He${S}|She${S}|It${S}|They${S}|Their${S}|Our${S}|We${S}|But${S}|However${S}|That${S}|This${S}|Wherever)`;
const ACRONYMS = "([A-Z][.][A-Z][.](?:[A-Z][.])?)";
const SPLIT_STEPS: [RegExp, string][] = [
  [/(Mr|St|Mrs|Ms|Dr)[.]/gu, "$1<prd>"],
  [/[.](com|net|org|io|gov|edu|me)/gu, "<prd>$1"],
  [/([0-9])[.]([0-9])/gu, "$1<prd>$2"],
];
const SPLIT_STEPS_AFTER_PHD: [RegExp, string][] = [
  [new RegExp(`${S}([A-Za-z])[.] `, "gu"), " $1<prd> "],
  [new RegExp(`${ACRONYMS} ${STARTERS}`, "gu"), "$1<stop> $2"],
  [/([A-Za-z])[.]([A-Za-z])[.]([A-Za-z])[.]/gu, "$1<prd>$2<prd>$3<prd>"],
  [/([A-Za-z])[.]([A-Za-z])[.]/gu, "$1<prd>$2<prd>"],
  [new RegExp(` (Inc|Ltd|Jr|Sr|Co)[.] ${STARTERS}`, "gu"), " $1<stop> $2"],
  [/ (Inc|Ltd|Jr|Sr|Co)[.]/gu, " $1<prd>"],
  [/ ([A-Za-z])[.]/gu, " $1<prd>"],
];

/** split_into_sentences: IFEval's regex sentence splitter (not nltk's). */
export function splitIntoSentences(input: string): string[] {
  let text = ` ${input}  `.replaceAll("\n", " ");
  for (const [pattern, replacement] of SPLIT_STEPS) text = text.replace(pattern, replacement);
  text = text.replace(/\.{2,}/gu, (dots) => `${"<prd>".repeat(dots.length)}<stop>`);
  if (text.includes("Ph.D")) text = text.replaceAll("Ph.D.", "Ph<prd>D<prd>");
  for (const [pattern, replacement] of SPLIT_STEPS_AFTER_PHD) text = text.replace(pattern, replacement);
  if (text.includes("”")) text = text.replaceAll(".”", "”.");
  if (text.includes('"')) text = text.replaceAll('."', '".');
  if (text.includes("!")) text = text.replaceAll('!"', '"!');
  if (text.includes("?")) text = text.replaceAll('?"', '"?');
  text = text.replaceAll(".", ".<stop>").replaceAll("?", "?<stop>").replaceAll("!", "!<stop>").replaceAll("<prd>", ".");
  let sentences = text.split("<stop>").map((s) => strip(s));
  if (sentences.length > 0 && !sentences[sentences.length - 1]) sentences = sentences.slice(0, -1);
  return sentences;
}

/** One match as re.finditer reports it. */
export interface PyMatch {
  index: number;
  text: string;
}

/**
 * re.finditer with a global, Unicode JavaScript regex: after an empty match the search moves on one code
 * point, as Python does (Python 3.7+ also allows a non-empty match at that same position; this does not).
 */
export function finditer(regex: RegExp, text: string): PyMatch[] {
  const matches: PyMatch[] = [];
  const re = new RegExp(regex.source, regex.flags.includes("g") ? regex.flags : `${regex.flags}g`);
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    matches.push({ index: m.index, text: m[0] });
    if (m[0] === "") re.lastIndex = m.index + ((text.codePointAt(m.index) ?? 0) > 0xffff ? 2 : 1);
    if (re.lastIndex > text.length) break;
  }
  return matches;
}

/** len(re.findall(pattern, text)). */
export function countMatches(regex: RegExp, text: string): number {
  return finditer(regex, text).length;
}

/** re.search(pattern, text) is not None. */
export function search(regex: RegExp, text: string): boolean {
  regex.lastIndex = 0;
  const found = regex.test(text);
  regex.lastIndex = 0;
  return found;
}

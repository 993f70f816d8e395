// length_constraints:* — sentence, paragraph and word counts, and the first word of the n-th paragraph.
import { compare, countOr, instruction, randomKeyword, relationOf, type InstructionSpec } from "./base.js";
import { countSentences } from "./util/punkt.js";
import { WS, at, codePoints, eq, gt, le, lower, lstrip, minus, requireStr, split, strip } from "./util/python.js";
import { randint } from "./util/random.js";
import { countWords } from "./util/text.js";

/** length_constraints:number_sentences — Punkt sentences (count_sentences; our parameters, util/punkt-params.ts), against a threshold. */
export const numberSentences = instruction(["num_sentences", "relation"], ({ num_sentences, relation }) => {
  const threshold = countOr(num_sentences, 1, 20);
  const rel = relationOf(relation);
  return (response) => compare(countSentences(response), rel, threshold);
});

const MARKDOWN_DIVIDER = new RegExp(`[${WS}]?\\*\\*\\*[${WS}]?`, "u");

/**
 * Paragraphs split by a separator: empty pieces at either end are dropped, an empty piece in the middle
 * fails (IFEval's ParagraphChecker loop). Returns the count, or undefined for a failure.
 */
export function paragraphCount(pieces: string[]): number | undefined {
  let count = pieces.length;
  for (let i = 0; i < pieces.length; i++) {
    if (strip(pieces[i]!)) continue;
    if (i === 0 || i === pieces.length - 1) count--;
    else return undefined;
  }
  return count;
}

/** Paragraphs separated by the markdown divider "***" (re.split(r"\s?\*\*\*\s?", response)). */
export function dividerParagraphs(response: string): string[] {
  return response.split(MARKDOWN_DIVIDER);
}

/** length_constraints:number_paragraphs — exactly N "***"-separated paragraphs. */
export const numberParagraphs = instruction(["num_paragraphs"], ({ num_paragraphs }) => {
  const wanted = countOr(num_paragraphs, 1, 5);
  return (response) => {
    const count = paragraphCount(dividerParagraphs(response));
    return count !== undefined && eq(count, wanted);
  };
});

/** length_constraints:number_words — \w+ runs, against a threshold. */
export const numberWords = instruction(["num_words", "relation"], ({ num_words, relation }) => {
  const threshold = countOr(num_words, 100, 500);
  const rel = relationOf(relation);
  return (response) => compare(countWords(response), rel, threshold);
});

const FIRST_WORD_PUNCTUATION = new Set([".", ",", "?", "!", "'", '"']);

/** length_constraints:nth_paragraph_first_word — N "\n\n"-separated paragraphs, the n-th starting with a word. */
export const nthParagraphFirstWord = instruction(["num_paragraphs", "nth_paragraph", "first_word"], ({ num_paragraphs, nth_paragraph, first_word }) => {
  const wanted = countOr(num_paragraphs, 1, 5);
  let nth = nth_paragraph;
  if (nth === undefined || le(nth, 0) || gt(nth, wanted)) nth = randint(1, minus(wanted, -1));
  const word = lower(requireStr(first_word === undefined ? randomKeyword() : first_word, "first_word"));
  return (response) => {
    const paragraphs = response.split("\n\n");
    const count = paragraphs.filter((p) => strip(p)).length;
    if (!le(nth, count)) return false;
    const paragraph = strip(at(paragraphs, minus(nth, 1)));
    if (!paragraph) return false;
    const firstToken = lstrip(lstrip(strip(split(paragraph)[0]!), "'"), '"');
    let found = "";
    for (const letter of codePoints(firstToken)) {
      if (FIRST_WORD_PUNCTUATION.has(letter)) break;
      found += lower(letter);
    }
    return eq(count, wanted) && found === word;
  };
});

export const LENGTH_CONSTRAINTS: Record<string, InstructionSpec> = {
  "length_constraints:number_sentences": numberSentences,
  "length_constraints:number_paragraphs": numberParagraphs,
  "length_constraints:number_words": numberWords,
  "length_constraints:nth_paragraph_first_word": nthParagraphFirstWord,
};

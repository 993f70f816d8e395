// count:* — lowercase-word budget, paragraph/sentence/word composition, unique words, keyword increments.
import { instruction, keywordCount, type InstructionSpec } from "./base.js";
import { dividerParagraphs } from "./length-constraints.js";
import { BOUNDARY, PyError, eq, le, stripStr, strip, truthy } from "./util/python.js";
import { randint } from "./util/random.js";
import { countMatches, splitIntoSentences } from "./util/text.js";
import { wordTokenize } from "./util/word-tokenize.js";

const LOWERCASE_WORD = new RegExp(`${BOUNDARY}[a-z]+${BOUNDARY}`, "gu");

/** count:lowercase_counting — at most N all-lowercase ASCII words (\b[a-z]+\b, Unicode word boundaries). */
export const lowercaseCounting = instruction(["N"], ({ N }) => {
  const limit = truthy(N) ? N : randint(2, 3);
  return (response) => le(countMatches(LOWERCASE_WORD, response), limit);
});

/** count:counting_composition — 3 "***" paragraphs of n_sent sentences of n_words word tokens each. */
export const countingComposition = instruction(["n_sent", "n_words"], ({ n_sent, n_words }) => {
  const sentences = truthy(n_sent) ? n_sent : randint(2, 3);
  const words = truthy(n_words) ? n_words : randint(2, 3);
  return (response) => {
    const paragraphs = dividerParagraphs(response);
    let count = paragraphs.length;
    for (let i = 0; i < paragraphs.length; i++) {
      const paragraph = paragraphs[i]!;
      if (!strip(paragraph)) {
        if (i === 0 || i === paragraphs.length - 1) count--;
        else return false;
      }
      const split = splitIntoSentences(paragraph);
      if (!eq(split.length, sentences)) return false;
      for (const sentence of split) if (!eq(wordTokenize(sentence).length, words)) return false;
    }
    return count === 3;
  };
});

/** count:count_unique — no word token repeats. */
export const countUnique = instruction([], () => (response) => {
  const tokens = wordTokenize(response);
  return new Set(tokens).size === tokens.length;
});

/**
 * count:count_increment_word — keyword1 matches once and keyword2 twice. A missing keyword makes IFEval use a
 * list as the pattern (generate_keywords returns one), which raises: never followed.
 */
export const countIncrementWord = instruction(["keyword1", "keyword2"], ({ keyword1, keyword2 }) => {
  if (!truthy(keyword1) || !truthy(keyword2)) throw new PyError("TypeError", "first argument must be string or compiled pattern");
  const first = stripStr(keyword1);
  const second = stripStr(keyword2);
  return (response) => keywordCount(first, response) === 1 && keywordCount(second, response) === 2;
});

export const COUNT: Record<string, InstructionSpec> = {
  "count:lowercase_counting": lowercaseCounting,
  "count:counting_composition": countingComposition,
  "count:count_unique": countUnique,
  "count:count_increment_word": countIncrementWord,
};

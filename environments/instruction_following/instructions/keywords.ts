// keywords:* — keyword presence, frequency and absence, letter frequency, and word-level keyword games.
// Keywords are Python regular expressions in IFEval (re.search(keyword, …)), and they stay so here.
import { compare, countOr, instruction, keywordCount, keywordFound, keywordOr, randomKeywords, relationOf, type InstructionSpec } from "./base.js";
import { PyError, at, codePoints, eq, first, iterate, lower, lt, minus, requireStr, sorted, split, stripStr, truthy } from "./util/python.js";
import { choice, randint } from "./util/random.js";
import { splitIntoSentences } from "./util/text.js";
import { wordTokenize } from "./util/word-tokenize.js";

const ASCII_LETTERS = [..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"];

/** keywords:existence — every keyword found (case-insensitive regex search). */
export const existence = instruction(["keywords"], ({ keywords }) => {
  const list = sorted(truthy(keywords) ? iterate(keywords) : randomKeywords(2));
  return (response) => list.every((keyword) => keywordFound(requireStr(keyword, "first argument"), response));
});

/** keywords:frequency and keywords:word_count_different_numbers — a keyword's count against a threshold. */
export const frequency = instruction(["keyword", "frequency", "relation"], ({ keyword, frequency: freq, relation }) => {
  const word = keywordOr(keyword);
  const threshold = countOr(freq, 1, 3);
  const rel = relationOf(relation);
  return (response) => compare(keywordCount(word, response), rel, threshold);
});

/** keywords:forbidden_words — none of the words found as whole words (`\b` + word + `\b`, case-insensitive). */
export const forbiddenWords = instruction(["forbidden_words"], ({ forbidden_words }) => {
  const items = truthy(forbidden_words) ? iterate(forbidden_words) : randomKeywords(2);
  if (items.some((item) => item !== null && typeof item === "object")) throw new PyError("TypeError", "unhashable type");
  const words = sorted([...new Set(items)]);
  return (response) => !words.some((word) => keywordFound(String.raw`\b` + requireStr(word, "can only concatenate str") + String.raw`\b`, response));
});

/** keywords:letter_frequency and letters:letter_counting2 — one letter's count in the lowercased response. */
export const letterFrequency = instruction(["letter", "let_frequency", "let_relation"], ({ letter, let_frequency, let_relation }) => {
  let chosen: string;
  if (!truthy(letter)) chosen = choice(ASCII_LETTERS);
  else {
    const size =
      typeof letter === "string"
        ? codePoints(letter).length
        : Array.isArray(letter)
          ? letter.length
          : letter && typeof letter === "object"
            ? Object.keys(letter).length
            : undefined;
    if (size === undefined) throw new PyError("TypeError", "object has no len()");
    if (size > 1) chosen = choice(ASCII_LETTERS);
    else {
      const lowered = codePoints(lower(requireStr(letter, "letter")));
      if (lowered.length !== 1) throw new PyError("TypeError", "ord() expected a character");
      const code = lowered[0]!.codePointAt(0)!;
      chosen = code < 97 || code > 122 ? choice(ASCII_LETTERS) : stripStr(letter);
    }
  }
  const target = lower(chosen);
  const threshold = countOr(let_frequency, 1, 10);
  const rel = relationOf(let_relation);
  return (response) => {
    const count = codePoints(lower(response)).filter((ch) => ch === target).length;
    return rel === "less than" ? lt(count, threshold) : !lt(count, threshold);
  };
});

/** keywords:no_adjacent_consecutive — no two adjacent words start with consecutive letters (b after a, …). */
export const noAdjacentConsecutive = instruction([], () => (response) => {
  const words = split(response);
  for (let i = 0; i + 1 < words.length; i++) {
    const a = codePoints(lower(codePoints(words[i]!)[0]!));
    const b = codePoints(lower(codePoints(words[i + 1]!)[0]!));
    if (a.length !== 1 || b.length !== 1) return false;
    if (b[0]!.codePointAt(0)! - a[0]!.codePointAt(0)! === 1) return false;
  }
  return true;
});

/** keywords:word_once — the keyword (a regex) matches exactly once. */
export const wordOnce = instruction(["keyword"], ({ keyword }) => {
  const word = keywordOr(keyword);
  return (response) => keywordCount(word, response) === 1;
});

/** keywords:exclude_word_harder — " keyword " (with the spaces) never appears. */
export const excludeWordHarder = instruction(["keyword", "instruction"], ({ keyword, instruction: text }) => {
  let word: string;
  if (truthy(keyword)) word = stripStr(keyword);
  else {
    if (typeof text !== "string") throw new PyError("AttributeError", "object has no attribute 'split'");
    word = choice(split(text));
  }
  return (response) => !response.includes(` ${word} `);
});

/** keywords:palindrome — some whitespace-separated word reads the same backwards. */
export const palindrome = instruction(
  [],
  () => (response) =>
    split(response).some((word) => {
      const cps = codePoints(word);
      return cps.join("") === [...cps].reverse().join("");
    }),
);

/** keywords:keyword_specific_position — the keyword is the m-th word token of the n-th sentence. */
export const keywordSpecificPosition = instruction(["keyword", "n", "m"], ({ keyword, n, m }) => {
  const word = !truthy(keyword) ? randomKeywords(1)[0]! : typeof keyword === "string" ? stripStr(keyword) : stripStr(first(keyword));
  const nth = truthy(n) ? n : randint(1, 20);
  const mth = truthy(m) ? m : randint(1, 30);
  return (response) => {
    const sentences = splitIntoSentences(response);
    if (lt(sentences.length, nth)) return false;
    const tokens = wordTokenize(at(sentences, minus(nth, 1)));
    if (lt(tokens.length, mth)) return false;
    return eq(at(tokens, minus(mth, 1)), word);
  };
});

/** keywords:start_end — the first and last word tokens are the same word (case-insensitive). */
export const startEnd = instruction([], () => (response) => {
  const tokens = wordTokenize(response);
  return tokens.length >= 2 && lower(tokens[0]!) === lower(tokens[tokens.length - 1]!);
});

export const KEYWORDS: Record<string, InstructionSpec> = {
  "keywords:existence": existence,
  "keywords:frequency": frequency,
  "keywords:forbidden_words": forbiddenWords,
  "keywords:letter_frequency": letterFrequency,
  "keywords:no_adjacent_consecutive": noAdjacentConsecutive,
  "keywords:word_once": wordOnce,
  "keywords:word_count_different_numbers": frequency,
  "keywords:exclude_word_harder": excludeWordHarder,
  "keywords:palindrome": palindrome,
  "keywords:keyword_specific_position": keywordSpecificPosition,
  "keywords:start_end": startEnd,
};

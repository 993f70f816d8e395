// first_word:* and last_word:* — the first or last word of the response or of every sentence.
import { instruction, randomKeyword, type InstructionSpec } from "./base.js";
import { PyError, WORD, WS, first, lower, split, stripStr, strip, truthy } from "./util/python.js";
import { splitIntoSentences } from "./util/text.js";

const NOT_WORD_OR_SPACE = new RegExp(`[^${WORD}${WS}]`, "gu");

/**
 * first_word:first_word_sent — every sentence (IFEval's regex splitter) starts with the word. A first_word
 * that is not a str is never followed: IFEval then compares instead of assigning
 * (`self._first_word == first_word[0].strip()`), reading an attribute that does not exist yet.
 */
export const firstWordSent = instruction(["first_word"], ({ first_word }) => {
  let word: string;
  if (!truthy(first_word)) {
    word = randomKeyword();
  } else if (typeof first_word !== "string") {
    // `self._first_word == first_word[0].strip()`: reading the unset attribute raises at once.
    throw new PyError("AttributeError", "'FirstWordSentChecker' object has no attribute '_first_word'");
  } else {
    word = strip(first_word);
  }
  return (response) => {
    for (const sentence of splitIntoSentences(response)) {
      if (!strip(sentence)) return false;
      if (lower(strip(split(sentence)[0]!)) !== lower(word)) return false;
    }
    return true;
  };
});

/** first_word:first_word_answer — the response's first word. */
export const firstWordAnswer = instruction(["first_word"], ({ first_word }) => {
  const word = truthy(first_word) ? stripStr(first_word) : randomKeyword();
  return (response) => {
    const words = split(response);
    return words.length > 0 && lower(strip(words[0]!)) === lower(word);
  };
});

/** The last word with punctuation removed (re.sub(r"[^\w\s]", "", word)). */
const bare = (word: string) => strip(word).replace(NOT_WORD_OR_SPACE, "");

/** last_word:last_word_sent — every sentence ends with the word (punctuation ignored). */
export const lastWordSent = instruction(["last_word"], ({ last_word }) => {
  const word = !truthy(last_word) ? randomKeyword() : typeof last_word === "string" ? strip(last_word) : stripStr(first(last_word));
  return (response) => {
    for (const sentence of splitIntoSentences(response)) {
      if (!strip(sentence)) return false;
      if (lower(bare(split(sentence).at(-1)!)) !== lower(word)) return false;
    }
    return true;
  };
});

/** last_word:last_word_answer — the response's last word (punctuation ignored); an empty response raises. */
export const lastWordAnswer = instruction(["last_word"], ({ last_word }) => {
  const word = truthy(last_word) ? stripStr(last_word) : randomKeyword();
  return (response) => {
    const words = split(response);
    if (words.length === 0) throw new PyError("IndexError", "list index out of range");
    return lower(bare(words[words.length - 1]!)) === lower(word);
  };
});

export const FIRST_LAST_WORD: Record<string, InstructionSpec> = {
  "first_word:first_word_sent": firstWordSent,
  "first_word:first_word_answer": firstWordAnswer,
  "last_word:last_word_sent": lastWordSent,
  "last_word:last_word_answer": lastWordAnswer,
};

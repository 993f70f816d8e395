// change_case:* — all-capital or all-lowercase English responses, and the count of all-capital words.
import { instruction, relationOf, type InstructionSpec } from "./base.js";
import { detectedAs } from "./language.js";
import { isLower, isUpper, lt } from "./util/python.js";
import { randint } from "./util/random.js";
import { wordTokenize } from "./util/word-tokenize.js";

/** change_case:capital_word_frequency — word tokens in all capitals, against a threshold. */
export const capitalWordFrequency = instruction(["capital_frequency", "capital_relation"], ({ capital_frequency, capital_relation }) => {
  const threshold = capital_frequency === undefined ? randint(1, 20) : capital_frequency;
  const relation = relationOf(capital_relation);
  return (response) => {
    const count = wordTokenize(response).filter((word) => isUpper(word)).length;
    return relation === "less than" ? lt(count, threshold) : !lt(count, threshold);
  };
});

/** change_case:english_capital — str.isupper() and detected as English (undetectable counts as English). */
export const englishCapital = instruction([], () => (response) => isUpper(response) && detectedAs(response, "en"));

/** change_case:english_lowercase — str.islower() and detected as English. */
export const englishLowercase = instruction([], () => (response) => isLower(response) && detectedAs(response, "en"));

export const CHANGE_CASE: Record<string, InstructionSpec> = {
  "change_case:capital_word_frequency": capitalWordFrequency,
  "change_case:english_capital": englishCapital,
  "change_case:english_lowercase": englishLowercase,
};

// letters:* — the number of ASCII letters, and one letter's frequency.
import { instruction, RELATIONS, type InstructionSpec } from "./base.js";
import { letterFrequency } from "./keywords.js";
import { lt, truthy } from "./util/python.js";
import { choice, randint } from "./util/random.js";

const ASCII_LETTER = /[a-zA-Z]/gu;

/** letters:letter_counting — ASCII letters against a threshold; an unknown relation is never followed. */
export const letterCounting = instruction(["N", "relation"], ({ N, relation }) => {
  const threshold = truthy(N) ? N : randint(2, 3);
  const rel = truthy(relation) ? relation : choice(RELATIONS);
  return (response) => {
    const count = response.match(ASCII_LETTER)?.length ?? 0;
    if (rel === "at least") return !lt(count, threshold);
    if (rel === "less than") return lt(count, threshold);
    return false;
  };
});

export const LETTERS: Record<string, InstructionSpec> = {
  "letters:letter_counting": letterCounting,
  "letters:letter_counting2": letterFrequency,
};

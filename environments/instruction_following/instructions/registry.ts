// The instruction registry: verifiable_instructions' INSTRUCTION_DICT (Google's IFEval instructions plus
// open-instruct's training constraints), id to spec.
import type { InstructionSpec } from "./base.js";
import { CHANGE_CASE } from "./change-case.js";
import { COMBINATION } from "./combination.js";
import { COPY } from "./copy.js";
import { COUNT } from "./count.js";
import { DETECTABLE_CONTENT } from "./detectable-content.js";
import { DETECTABLE_FORMAT } from "./detectable-format.js";
import { FIRST_LAST_WORD } from "./first-last-word.js";
import { KEYWORDS } from "./keywords.js";
import { LANGUAGE } from "./language.js";
import { LENGTH_CONSTRAINTS } from "./length-constraints.js";
import { LETTERS } from "./letters.js";
import { PARAGRAPHS } from "./paragraphs.js";
import { PUNCTUATION } from "./punctuation.js";
import { STARTEND } from "./startend.js";

export const INSTRUCTIONS: ReadonlyMap<string, InstructionSpec> = new Map(
  Object.entries({
    ...KEYWORDS,
    ...LANGUAGE,
    ...LENGTH_CONSTRAINTS,
    ...DETECTABLE_CONTENT,
    ...DETECTABLE_FORMAT,
    ...COMBINATION,
    ...STARTEND,
    ...CHANGE_CASE,
    ...PUNCTUATION,
    ...COPY,
    ...PARAGRAPHS,
    ...FIRST_LAST_WORD,
    ...COUNT,
    ...LETTERS,
  }),
);

/** Google's IFEval registry (instructions_registry.INSTRUCTION_DICT of google-research/instruction_following_eval). */
export const IFEVAL_IDS = [
  "keywords:existence",
  "keywords:frequency",
  "keywords:forbidden_words",
  "keywords:letter_frequency",
  "language:response_language",
  "length_constraints:number_sentences",
  "length_constraints:number_paragraphs",
  "length_constraints:number_words",
  "length_constraints:nth_paragraph_first_word",
  "detectable_content:number_placeholders",
  "detectable_content:postscript",
  "detectable_format:number_bullet_lists",
  "detectable_format:constrained_response",
  "detectable_format:number_highlighted_sections",
  "detectable_format:multiple_sections",
  "detectable_format:json_format",
  "detectable_format:title",
  "combination:two_responses",
  "combination:repeat_prompt",
  "startend:end_checker",
  "change_case:capital_word_frequency",
  "change_case:english_capital",
  "change_case:english_lowercase",
  "punctuation:no_comma",
  "startend:quotation",
] as const;

// NeMo Gym equivalence_rule's grading rules: exact, seq_match and weighted_seq_match over normalized text.
import { pyLower } from "../sdk/python/text-case.js";
import { PY_WHITESPACE, pyStrip } from "../sdk/python/text.js";
import { SequenceMatcher } from "../sdk/python/difflib.js";

export const GRADING_RULES = ["seq_match", "weighted_seq_match", "exact"] as const;
export type GradingRule = (typeof GRADING_RULES)[number];

/** `SequenceMatcher(None, a, b).ratio()` (the SDK's difflib, checked against CPython's). */
export function sequenceRatio(a: string, b: string): number {
  return new SequenceMatcher(a, b).ratio();
}

const WHITESPACE_RUN = new RegExp(`[${PY_WHITESPACE}]+`, "gu");

/** `_normalize`: strip, lower, then every run of Python whitespace becomes one space. */
export function normalize(text: string): string {
  return pyLower(pyStrip(text)).replace(WHITESPACE_RUN, " ");
}

/** `_grade_seq_match`: SequenceMatcher's ratio of the normalized texts. */
export function gradeSeqMatch(response: string, answer: string): number {
  return sequenceRatio(normalize(response), normalize(answer));
}

/** `_grade_weighted_seq_match`: 85% full-text ratio, 15% ratio of the first ~10 characters, clamped to [0, 1]. */
export function gradeWeightedSeqMatch(response: string, answer: string): number {
  const responseN = [...normalize(response)];
  const answerN = [...normalize(answer)];
  const sim = sequenceRatio(responseN.join(""), answerN.join(""));
  const prefix = answerN.slice(0, 10);
  const prefixSim = sequenceRatio(responseN.slice(0, prefix.length).join(""), prefix.join(""));
  const reward = 0.85 * sim + 0.15 * prefixSim;
  return Math.max(0.0, Math.min(1.0, reward));
}

/** `_grade_exact`: 1.0 when the normalized texts are equal. */
export function gradeExact(response: string, answer: string): number {
  return normalize(response) === normalize(answer) ? 1.0 : 0.0;
}

const RULES: Record<GradingRule, (response: string, answer: string) => number> = {
  seq_match: gradeSeqMatch,
  weighted_seq_match: gradeWeightedSeqMatch,
  exact: gradeExact,
};

/** `_grade`: the configured rule's score. */
export function grade(response: string, answer: string, rule: GradingRule): number {
  return RULES[rule](response, answer);
}

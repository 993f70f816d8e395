// lc_niah's three reasoning/input overlap signals (seq_match, ngram16, lcs), each in [0, 1], as NeMo Gym computes them.
import { PY_WHITESPACE, pySplit, pyStrip } from "../sdk/python/text.js";
import { SequenceMatcher } from "../sdk/python/difflib.js";

const WHITESPACE_RUN = new RegExp(`[${PY_WHITESPACE}]+`, "gu");

/** `_normalize`: strip, lower, every run of `\s` to one space. */
export function normalize(text: string): string {
  return pyStrip(text).toLowerCase().replace(WHITESPACE_RUN, " ");
}

/** difflib's ratio between the normalized reasoning and input (autojunk on); 0 with no reasoning. */
export function overlapSeqMatch(reasoning: string, input: string): number {
  const reasoningN = normalize(reasoning);
  if (!reasoningN) return 0.0;
  return new SequenceMatcher(reasoningN, normalize(input)).ratio();
}

/** The share of the reasoning's distinct word n-grams found in the input; 0 below n words. */
export function overlapNgram(reasoning: string, input: string, n: number): number {
  const reasoningTokens = pySplit(normalize(reasoning));
  if (reasoningTokens.length < n) return 0.0;
  const inputTokens = pySplit(normalize(input));
  const ngrams = (tokens: string[]) => {
    const found = new Set<string>();
    for (let i = 0; i < tokens.length - n + 1; i++) found.add(JSON.stringify(tokens.slice(i, i + n)));
    return found;
  };
  const reasoningNgrams = ngrams(reasoningTokens);
  const inputNgrams = ngrams(inputTokens);
  if (!reasoningNgrams.size) return 0.0;
  return [...reasoningNgrams].filter((gram) => inputNgrams.has(gram)).length / reasoningNgrams.size;
}

/** The longest common substring (difflib, autojunk off) over the reasoning's length in code points; 0 with no reasoning. */
export function overlapLcs(reasoning: string, input: string): number {
  const reasoningN = normalize(reasoning);
  if (!reasoningN) return 0.0;
  const matcher = new SequenceMatcher(reasoningN, normalize(input), false);
  return matcher.findLongestMatch(0, matcher.lengthA, 0, matcher.lengthB).size / matcher.lengthA;
}

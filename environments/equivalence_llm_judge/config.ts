// NeMo Gym's LLMJudgeResourcesServerConfig, with the values of its configs/equivalence_llm_judge.yaml as defaults.
import type { ResponsesCreateParams } from "../../protocol/index.js";
import { EQUIVALENCE_PROMPT_TEMPLATE } from "./prompt.js";

export interface EquivalenceJudgeConfig {
  /** Params every judge request starts from (judge_responses_create_params, minus input). */
  judgeParams: Omit<ResponsesCreateParams, "input">;
  /** A system message before the prompt; none when null or "". */
  judgeSystemMessage: string | null;
  /** The user prompt, with {question}, {expected_answer} and {generated_answer}. */
  promptTemplate: string;
  equalLabel: string;
  notEqualLabel: string;
  /** Python regex picking the question out of the last user message (last match, first non-empty group). */
  questionExtractRegex: string | null;
  /** Python regex picking the answer out of the last assistant message (last match, first non-empty group). */
  responseExtractRegex: string | null;
  /** What the judge is shown when the response has no assistant text. */
  extractionFailureMessage: string;
  /** After an equal verdict, ask again with the answers swapped (positional bias). */
  checkTwiceSwap: boolean;
  rewardIfSwapFails: number;
  /** A row's template_metadata.output_regex replaces responseExtractRegex. */
  usePerRecordRegex: boolean;
  /** With a per-record regex: expected answers longer than this are judged on the whole generation. */
  extractionLengthThreshold: number | null;
  /** With a per-record regex: after a not-equal verdict, judge the whole generation for partial credit. */
  checkFullGenerationOnFail: boolean;
  rewardIfFullGenerationSucceeds: number;
}

export const DEFAULT_CONFIG: EquivalenceJudgeConfig = {
  judgeParams: {},
  judgeSystemMessage: null,
  promptTemplate: EQUIVALENCE_PROMPT_TEMPLATE,
  equalLabel: "[[A=B]]",
  notEqualLabel: "[[A!=B]]",
  questionExtractRegex: null,
  responseExtractRegex: null,
  extractionFailureMessage: "[NO VALID ANSWER EXTRACTED]",
  checkTwiceSwap: false,
  rewardIfSwapFails: 0.0,
  usePerRecordRegex: true,
  extractionLengthThreshold: null,
  checkFullGenerationOnFail: false,
  rewardIfFullGenerationSucceeds: 0.0,
};

/**
 * The server class's own defaults, which NeMo Gym's tests start from (the yaml above overrides the
 * last three): a 120-character threshold and half credit for a full-generation rescue.
 */
export const CLASS_DEFAULT_CONFIG: EquivalenceJudgeConfig = {
  ...DEFAULT_CONFIG,
  extractionLengthThreshold: 120,
  checkFullGenerationOnFail: true,
  rewardIfFullGenerationSucceeds: 0.5,
};

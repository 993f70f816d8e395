// NeMo Gym's MultiChallengeConfig with the values of its configs/multichallenge.yaml (prompts byte for byte).
import type { ResponsesCreateParams } from "../../protocol/index.js";

/** How rubric scores combine into the reward (NeMo Gym's AggregationMode). */
export type AggregationMode = "mean" | "min" | "max" | "all" | "any" | "weighted";

export interface MultiChallengeConfig {
  /** judge_responses_create_params, minus input. */
  judgeParams: Omit<ResponsesCreateParams, "input">;
  aggregationMode: AggregationMode;
  /** Filled with {context}, {response}, {question} and {pass_criteria} by Python's str.format. */
  judgePromptTemplate: string;
  /** A system message before the prompt; none when null or "". */
  judgeSystemMessage: string | null;
  /** Judge the rubric items at once (asyncio.gather) or one after another. */
  parallelEvaluation: boolean;
  yesLabel: string;
  noLabel: string;
}

export const JUDGE_PROMPT_TEMPLATE =
  "You are evaluating whether a model's response meets a specific criterion.\n\nCONVERSATION CONTEXT:\n{context}\n\nMODEL'S FINAL RESPONSE:\n{response}\n\nEVALUATION QUESTION:\n{question}\n\nEXPECTED ANSWER: {pass_criteria}\n\nDoes the model's response satisfy the criterion described in the evaluation question?\nThink step by step, then respond with exactly [[YES]] or [[NO]] on the last line.";

export const JUDGE_SYSTEM_MESSAGE =
  "You are a precise evaluator. Assess responses objectively based on the given criteria. Analyze the response carefully against the evaluation question.";

export const DEFAULT_CONFIG: MultiChallengeConfig = {
  judgeParams: { max_output_tokens: 8192, temperature: 0.7, top_p: 0.8 },
  aggregationMode: "mean",
  judgePromptTemplate: JUDGE_PROMPT_TEMPLATE,
  judgeSystemMessage: JUDGE_SYSTEM_MESSAGE,
  parallelEvaluation: true,
  yesLabel: "[[YES]]",
  noLabel: "[[NO]]",
};

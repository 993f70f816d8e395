// NeMo Gym's math_with_judge verify: math_verify-style symbolic check first, the LLM judge only when it fails.
import type { Response as ResponsesResponse, ResponsesCreateParams } from "../../protocol/index.js";
import type { Judge } from "../sdk/index.js";
import { judgeBothOrders, type JudgeEvaluation } from "./judge.js";
import { verifyWithLibrary } from "./library.js";

export interface MathWithJudgeConfig {
  /** Ask the judge when the symbolic check scores 0 (NeMo Gym's should_use_judge). */
  shouldUseJudge: boolean;
  /** Create params every judge request starts from (NeMo Gym's judge_responses_create_params, minus input). */
  judgeParams: Omit<ResponsesCreateParams, "input">;
}

/**
 * The judge is on, as in NeMo Gym's server class and in the run that recorded its example rollouts
 * (their configs/math_with_judge.yaml turns it off for training on OpenMathReasoning).
 */
export const DEFAULT_CONFIG: MathWithJudgeConfig = { shouldUseJudge: true, judgeParams: {} };

/** The verify response's fields (a type, not an interface, so it is a plain record for the SDK). */
export type MathVerdict = {
  reward: number;
  expected_answer: string;
  extracted_answer: string | null;
  library_reward: number;
  judge_evaluations: JudgeEvaluation[] | null;
};

/** Every output_text of every message in the response, joined without separator (refusals skipped). */
export function responseText(response: ResponsesResponse): string {
  const texts: string[] = [];
  for (const item of response.output) {
    if (item.type !== "message") continue;
    if (typeof item.content === "string") texts.push(item.content);
    else for (const part of item.content) if (part.type === "output_text") texts.push(part.text ?? "");
  }
  return texts.join("");
}

export async function verifyMathAnswer(
  task: { question: string; expected_answer: string; response: ResponsesResponse },
  judge: Judge,
  config: MathWithJudgeConfig = DEFAULT_CONFIG,
): Promise<MathVerdict> {
  const generated = responseText(task.response);
  const library = verifyWithLibrary(task.expected_answer, generated);
  const verdict = { expected_answer: task.expected_answer, extracted_answer: library.extractedAnswer, library_reward: library.reward };
  if (!config.shouldUseJudge || library.reward > 0.5) return { ...verdict, reward: library.reward, judge_evaluations: null };
  // The judge sees the extracted answer when there is one (a whole solution could overflow its context).
  const judged = library.extractedAnswer || generated;
  const [reward, evaluations] = await judgeBothOrders(judge, config.judgeParams, task.question, task.expected_answer, judged);
  return { ...verdict, reward, judge_evaluations: evaluations };
}

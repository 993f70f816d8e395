// One judge call of NeMo Gym's equivalence_llm_judge: the prompt, and the verdict label read from the reply.
import type { Response as ResponsesResponse, ResponsesCreateParams } from "../../protocol/index.js";
import type { Judge } from "../sdk/index.js";
import type { EquivalenceJudgeConfig } from "./config.js";
import { pyFormat } from "../sdk/python/format.js";

/** One judge call as NeMo Gym records it, with the label found (null when neither label is in the reply). */
export type JudgeEvaluation = {
  responses_create_params: ResponsesCreateParams;
  response: ResponsesResponse;
  verdict_label: string | null;
};

/** The text of the reply's last output part; "" when it is not a message or has no text (reads as not equal). */
function replyText(response: ResponsesResponse): string {
  const last = response.output[response.output.length - 1];
  if (last?.type !== "message") return "";
  if (typeof last.content === "string") return last.content;
  return last.content[last.content.length - 1]?.text ?? "";
}

/** The label that appears first wins; neither label means not equal. */
export function readVerdict(text: string, config: EquivalenceJudgeConfig): string | null {
  const equal = text.indexOf(config.equalLabel);
  const different = text.indexOf(config.notEqualLabel);
  if (equal < 0 && different < 0) return null;
  return equal >= 0 && (different < 0 || equal < different) ? config.equalLabel : config.notEqualLabel;
}

export async function judgeEquivalence(
  judge: Judge,
  config: EquivalenceJudgeConfig,
  answers: { question: string; expected: string; generated: string },
): Promise<[boolean, JudgeEvaluation]> {
  const prompt = pyFormat(config.promptTemplate, {
    question: answers.question,
    expected_answer: answers.expected,
    generated_answer: answers.generated,
  });
  const input: ResponsesCreateParams["input"] = [];
  if (config.judgeSystemMessage) input.push({ type: "message", role: "system", content: config.judgeSystemMessage });
  input.push({ type: "message", role: "user", content: prompt });
  const params: ResponsesCreateParams = { ...config.judgeParams, input };
  const response = await judge(params);
  const label = readVerdict(replyText(response), config);
  return [label === config.equalLabel, { responses_create_params: params, response, verdict_label: label }];
}

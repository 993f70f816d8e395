// The LLM-judge fallback of NeMo Gym's math_with_judge: Arena-Hard style prompt, both answer orders must say [[A=B]].
import type { Response as ResponsesResponse, ResponsesCreateParams } from "../../protocol/index.js";
import type { Judge } from "../sdk/index.js";

// NeMo Gym's JUDGE_SYSTEM_MESSAGE and JUDGE_PROMPT_TEMPLATE, verbatim: the judge must see the same text.
export const JUDGE_SYSTEM_MESSAGE = `Please act as an impartial judge and evaluate the equivalence of the solutions given by two AI assistants to the mathematical problem displayed below. You will be given AI assistant A's answer and AI assistant B's answer. Your job is to evaluate whether assistant A's answer is equivalent to assistant B's answer.

Consider the mathematical equivalence of the AI assistants' answers above all other considerations. If the problem requests special formatting instructions, you may disregard any formatting considerations when evaluating the answers -- consider only mathematical equivalence.

After evaluating both answers for equivalence, you must output only one of the following choices as your final verdict with a label:

1.  The AI assistants' answers are equivalent: [[A=B]]
2.  The AI assistants' answers are different: [[A!=B]]

Example output: "My final verdict is different [[A!=B]]".`;

export const JUDGE_EQUAL_LABEL = "[[A=B]]";
export const JUDGE_NOT_EQUAL_LABEL = "[[A!=B]]";

export function judgePrompt(question: string, firstAnswer: string, secondAnswer: string): string {
  return `<|Problem|>\n${question}\n\n<|Start of Assistant A's Answer|>\n${firstAnswer}\n<|End of Assistant A's Answer|>\n\n<|Start of Assistant B's Answer|>\n${secondAnswer}\n<|End of Assistant B's Answer|>`;
}

/** One judge call as NeMo Gym records it. */
export interface JudgeEvaluation {
  responses_create_params: ResponsesCreateParams;
  response: ResponsesResponse;
}

/**
 * Whether the judge said [[A=B]]: the label that comes first in the last output text wins. A last output
 * that is not a message, or a last part that is not output_text, reads as "different". A response with
 * no output, or a message with no parts, is an error, as NeMo Gym's indexing makes it (the verify fails).
 */
export function saidEqual(response: ResponsesResponse): boolean {
  const last = response.output[response.output.length - 1];
  if (!last) throw new Error("the judge's response has no output item");
  if (last.type !== "message") return false;
  const parts = typeof last.content === "string" ? [{ type: "output_text", text: last.content }] : last.content;
  const part = parts[parts.length - 1];
  if (!part) throw new Error("the judge's last message has no content");
  if (part.type !== "output_text") return false;
  const text = part.text ?? "";
  const equal = text.indexOf(JUDGE_EQUAL_LABEL);
  const different = text.indexOf(JUDGE_NOT_EQUAL_LABEL);
  return equal >= 0 && (different < 0 || equal < different);
}

/** Ask the judge once, answers in the given order. */
export async function judgeOnce(
  judge: Judge,
  base: Omit<ResponsesCreateParams, "input">,
  question: string,
  firstAnswer: string,
  secondAnswer: string,
): Promise<[boolean, JudgeEvaluation]> {
  const params: ResponsesCreateParams = {
    ...base,
    input: [
      { type: "message", role: "system", content: JUDGE_SYSTEM_MESSAGE },
      { type: "message", role: "user", content: judgePrompt(question, firstAnswer, secondAnswer) },
    ],
  };
  const response = await judge(params);
  return [saidEqual(response), { responses_create_params: params, response }];
}

/**
 * Expected answer first, then (only if the judge says equal) the generated answer first: positional bias
 * must not decide. Reward 1 only when both orders say [[A=B]].
 */
export async function judgeBothOrders(
  judge: Judge,
  base: Omit<ResponsesCreateParams, "input">,
  question: string,
  expected: string,
  generated: string,
): Promise<[number, JudgeEvaluation[]]> {
  const [firstEqual, first] = await judgeOnce(judge, base, question, expected, generated);
  if (!firstEqual) return [0, [first]];
  const [secondEqual, second] = await judgeOnce(judge, base, question, generated, expected);
  return [secondEqual ? 1 : 0, [first, second]];
}

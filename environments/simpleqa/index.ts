// Port of NeMo Gym's simpleqa: an LLM judge grades a short factual answer CORRECT (A), INCORRECT (B) or NOT_ATTEMPTED (C).
import { defineEnvironment, JudgeError, passAtK, z } from "../sdk/index.js";
import type { Response as ModelResponse } from "../../protocol/index.js";
import { pyFormat } from "../sdk/python/format.js";
import { pyStrip } from "../sdk/python/text.js";
import { SIMPLEQA_JUDGE_PROMPT } from "./prompt.js";

const Task = z.looseObject({
  id: z.union([z.number().int(), z.string()]).nullish(),
  question: z.string().nullish(),
  expected_answer: z.string().nullish(),
});

/** NeMo Gym's extract_text_from_response: the last assistant message with text, its parts joined by newlines, stripped. */
export function extractText(response: ModelResponse): string {
  for (const item of [...response.output].reverse()) {
    if (item.type !== "message" || item.role !== "assistant") continue;
    const texts = typeof item.content === "string" ? [item.content] : item.content.flatMap((part) => (typeof part.text === "string" ? [part.text] : []));
    if (texts.length > 0) return pyStrip(texts.join("\n"));
  }
  return "";
}

const GRADES = ["A", "B", "C"];

/** The judge's grade: a leading letter, else the last line's, else the first of A, B, C anywhere; "C" when none. */
export function parseJudgeGrade(judgeText: string): string {
  const cleaned = pyStrip(judgeText);
  const first = (text: string) => Array.from(text)[0] ?? "";
  if (GRADES.includes(first(cleaned))) return first(cleaned);
  const lastLine = pyStrip(cleaned.slice(cleaned.lastIndexOf("\n") + 1));
  if (GRADES.includes(first(lastLine))) return first(lastLine);
  return GRADES.find((letter) => cleaned.includes(letter)) ?? "C";
}

const VERDICTS = { A: "correct", B: "incorrect", C: "not_attempted" } as const;

/** NeMo Gym's _score_fn: one channel per verdict (a record without one counts as not attempted). */
const scoreFn = (r: Record<string, unknown>) => {
  const verdict = r.verdict ?? "not_attempted";
  return {
    correct: verdict === "correct" ? 1.0 : 0.0,
    incorrect: verdict === "incorrect" ? 1.0 : 0.0,
    not_attempted: verdict === "not_attempted" ? 1.0 : 0.0,
  };
};

/** pass@k per verdict, then F1 and accuracy_given_attempted at every aggregation (NeMo Skills' SimpleQAMetrics). */
export function simpleqaMetrics(tasks: Parameters<typeof passAtK>[0]): Record<string, unknown> {
  const metrics: Record<string, unknown> = { ...passAtK(tasks, { scoreFn, answerKey: "extracted_answer" }) };
  for (const key of Object.keys(metrics)) {
    const at = key.lastIndexOf("/correct");
    if (at < 0) continue;
    const agg = key.slice(0, at);
    const correctValue = metrics[`${agg}/correct`];
    const incorrectValue = metrics[`${agg}/incorrect`];
    if (typeof correctValue !== "number" || typeof incorrectValue !== "number") continue;
    const correct = correctValue / 100.0;
    const attempted = correct + incorrectValue / 100.0;
    const accuracyGivenAttempted = attempted > 0 ? correct / attempted : 0.0;
    const denom = accuracyGivenAttempted + correct;
    const f1 = denom > 0 ? (2 * accuracyGivenAttempted * correct) / denom : 0.0;
    metrics[`${agg}/f1`] = 100.0 * f1;
    metrics[`${agg}/accuracy_given_attempted`] = 100.0 * accuracyGivenAttempted;
  }
  return metrics;
}

export default defineEnvironment({
  name: "simpleqa",
  description: "SimpleQA: an LLM judge grades the answer against expected_answer; reward 1.0 only for CORRECT.",
  task: Task,
  tools: {},
  verify: async (request, ctx) => {
    const generation = extractText(request.response);
    const expected = request.expected_answer ?? "";
    const prompt = pyFormat(SIMPLEQA_JUDGE_PROMPT, { question: request.question ?? "", expected_answer: expected, generation });
    // configs/simpleqa.yaml: max_output_tokens 2048, temperature 0.0, top_p 1.0.
    const reply = await ctx.judge({
      input: [{ type: "message", role: "user", content: prompt }],
      max_output_tokens: 2048,
      temperature: 0.0,
      top_p: 1.0,
    });
    const judgeText = extractText(reply);
    if (!judgeText) throw new JudgeError("empty judge response");
    const verdict = VERDICTS[parseJudgeGrade(judgeText) as keyof typeof VERDICTS];
    return {
      reward: verdict === "correct" ? 1.0 : 0.0,
      extracted_answer: generation,
      expected_answer: expected,
      verdict,
      judge_output: judgeText,
      is_correct: verdict === "correct" ? 1.0 : 0.0,
      is_incorrect: verdict === "incorrect" ? 1.0 : 0.0,
      is_not_attempted: verdict === "not_attempted" ? 1.0 : 0.0,
    };
  },
  computeMetrics: simpleqaMetrics,
});

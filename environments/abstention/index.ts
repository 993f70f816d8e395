// Port of NeMo Gym's abstention: \boxed{[IDK]} earns the abstention reward; other answers are graded by an LLM judge.
import type { Response as ModelResponse } from "../../protocol/index.js";
import { pyFormat } from "../sdk/python/format.js";
import { pySub } from "../sdk/python/sub.js";
import { defineEnvironment, JudgeError, z } from "../sdk/index.js";
import { pySplit, pyStrip } from "../sdk/python/text.js";
import { messageTexts, stripThinkingTraces } from "../sdk/response-helpers.js";
import { ABSTENTION_JUDGE_PROMPT } from "./prompt.js";

/** NeMo Gym's AbstentionConfig defaults (configs/abstention.yaml sets the same values). */
export const ABSTENTION_CONFIG = { abstentionReward: 0.5, abstentionToken: "[IDK]", correctReward: 1.0, incorrectReward: 0.0 };

const Task = z.looseObject({
  id: z.union([z.number().int(), z.string()]).nullish(),
  question: z.string().nullish(),
  answer: z.string().nullish(),
});

/** NeMo Gym's _strip_thinking_traces (the SDK's, shared with inverse_if and multichallenge). */
export { stripThinkingTraces };

/** The content of the last \boxed{...}, nested braces counted; null when there is none or it never closes. */
export function extractBoxedAnswer(text: string): string | null {
  const at = text.lastIndexOf("\\boxed{");
  if (at < 0) return null;
  const start = at + "\\boxed{".length;
  let depth = 1;
  let i = start;
  for (; i < text.length && depth > 0; i++) {
    if (text[i] === "{") depth += 1;
    else if (text[i] === "}") depth -= 1;
  }
  return depth === 0 ? text.slice(start, i - 1) : null;
}

/** SQuAD-style: lower, strip, articles out, non-word characters out, whitespace collapsed. */
export function normalizeAnswer(text: string): string {
  let s = pyStrip(text.toLowerCase());
  s = pySub(String.raw`\b(a|an|the)\b`, s, () => " ");
  s = pySub(String.raw`[^\w\s]`, s, () => "");
  return pySplit(s).join(" ");
}

/** The last assistant message with text, parts joined by newlines, stripped, thinking blocks removed. */
export function extractText(response: ModelResponse): string {
  for (const item of [...response.output].reverse()) {
    if (item.type !== "message" || item.role !== "assistant") continue;
    // Unlike inverse_if's, a message without any text is passed over for an earlier one.
    const texts = messageTexts(item) ?? [];
    if (texts.length > 0) return stripThinkingTraces(pyStrip(texts.join("\n")));
  }
  return "";
}

/** The whole reply, else its last line, exactly A/B/C; else the first of A, B, C found anywhere; "B" when none. */
export function parseJudgeGrade(judgeText: string): string {
  const cleaned = pyStrip(judgeText);
  const grades = ["A", "B", "C"];
  if (grades.includes(cleaned)) return cleaned;
  const lastLine = pyStrip(cleaned.slice(cleaned.lastIndexOf("\n") + 1));
  if (grades.includes(lastLine)) return lastLine;
  return grades.find((letter) => cleaned.includes(letter)) ?? "B";
}

export default defineEnvironment({
  name: "abstention",
  description: "Abstention: \\boxed{[IDK]} earns 0.5; otherwise an LLM judge grades the boxed answer (correct 1.0, incorrect 0.0).",
  task: Task,
  tools: {},
  verify: async (request, ctx) => {
    const config = ABSTENTION_CONFIG;
    const output = extractText(request.response);
    const extracted = extractBoxedAnswer(output) ?? output;
    const groundTruth = request.answer || "";
    let verdict: "correct" | "abstain" | "incorrect";
    let reward: number;
    let judgeText: string | null = null;
    if (normalizeAnswer(extracted) === normalizeAnswer(config.abstentionToken)) {
      [verdict, reward] = ["abstain", config.abstentionReward];
    } else {
      const prompt = pyFormat(ABSTENTION_JUDGE_PROMPT, { question: request.question || "", target: groundTruth, predicted_answer: extracted });
      // configs/abstention.yaml: max_output_tokens 64, temperature 0.0, top_p 1.0.
      const reply = await ctx.judge({ input: [{ type: "message", role: "user", content: prompt }], max_output_tokens: 64, temperature: 0.0, top_p: 1.0 });
      judgeText = extractText(reply);
      if (!judgeText) throw new JudgeError("empty judge response");
      const grade = parseJudgeGrade(judgeText);
      if (grade === "A") [verdict, reward] = ["correct", config.correctReward];
      else if (grade === "C") [verdict, reward] = ["abstain", config.abstentionReward];
      else [verdict, reward] = ["incorrect", config.incorrectReward];
    }
    const isCorrect = verdict === "correct" ? 1.0 : 0.0;
    const isIncorrect = verdict === "incorrect" ? 1.0 : 0.0;
    return {
      reward,
      extracted_answer: extracted,
      ground_truth: groundTruth,
      verdict,
      judge_output: judgeText,
      is_correct: isCorrect,
      is_abstain: verdict === "abstain" ? 1.0 : 0.0,
      is_incorrect: isIncorrect,
      omniscience_index: isCorrect - isIncorrect,
    };
  },
});

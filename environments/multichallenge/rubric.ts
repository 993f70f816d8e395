// One multichallenge rubric question judged YES/NO by an LLM, and the scores combined into a reward.
import type { ResponsesCreateParams } from "../../protocol/index.js";
import type { Judge } from "../sdk/index.js";
import { parsePyFloat } from "../sdk/python/numbers.js";
import type { AggregationMode, MultiChallengeConfig } from "./config.js";
import { pyFormatKeywords } from "../sdk/python/format-keywords.js";
import { extractVerdict, responseText } from "./text.js";

/** NeMo Gym's RubricEvaluation. */
export interface RubricEvaluation {
  question: string;
  pass_criteria: string;
  judge_prompt: string;
  judge_response: string;
  verdict: "YES" | "NO";
  score: number;
  weight: number;
}

/** `item.get(key, fallback)` as a str (pydantic's RubricEvaluation raises on anything else: a 500). */
function text(item: Record<string, unknown>, key: string, fallback: string): string {
  const value = Object.hasOwn(item, key) ? item[key] : fallback;
  if (typeof value !== "string") throw new TypeError(`a rubric item's ${JSON.stringify(key)} must be a string, got ${JSON.stringify(value)}`);
  return value;
}

/** The weight as pydantic's float field takes it (a number, a bool, or a numeric string). */
function weightOf(item: Record<string, unknown>): number {
  const value = Object.hasOwn(item, "weight") ? item.weight : 1.0;
  if (typeof value === "number") return value;
  if (typeof value === "boolean") return value ? 1 : 0;
  const parsed = typeof value === "string" ? parsePyFloat(value) : null;
  if (parsed === null) throw new TypeError(`a rubric item's weight must be a number, got ${JSON.stringify(value)}`);
  return parsed;
}

export async function evaluateItem(judge: Judge, config: MultiChallengeConfig, item: unknown, context: string, response: string): Promise<RubricEvaluation> {
  if (item === null || typeof item !== "object" || Array.isArray(item)) throw new TypeError("a rubric item must be an object (NeMo Gym calls item.get)");
  const record = item as Record<string, unknown>;
  const question = text(record, "question", "");
  const passCriteria = text(record, "pass_criteria", "YES");
  const weight = weightOf(record);
  const judgePrompt = pyFormatKeywords(config.judgePromptTemplate, { context, response, question, pass_criteria: passCriteria });
  const input: ResponsesCreateParams["input"] = [];
  if (config.judgeSystemMessage) input.push({ type: "message", role: "system", content: config.judgeSystemMessage });
  input.push({ type: "message", role: "user", content: judgePrompt });
  const judgeText = responseText(await judge({ ...structuredClone(config.judgeParams), input }));
  const verdict = extractVerdict(judgeText, config.yesLabel, config.noLabel);
  // pass_criteria NO passes on a NO verdict; YES and anything else pass on YES.
  const score = (passCriteria.toUpperCase() === "NO" ? verdict === "NO" : verdict === "YES") ? 1.0 : 0.0;
  return { question, pass_criteria: passCriteria, judge_prompt: judgePrompt, judge_response: judgeText, verdict, score, weight };
}

const passed = (score: number) => score >= 0.99;

/** NeMo Gym's _aggregate_scores; no items score 0; weighted divides by the total weight (0 when it is 0). */
export function aggregateScores(evaluations: readonly Pick<RubricEvaluation, "score" | "weight">[], mode: AggregationMode): number {
  if (evaluations.length === 0) return 0.0;
  const scores = evaluations.map((e) => e.score);
  switch (mode) {
    case "mean":
      return scores.reduce((sum, s) => sum + s, 0) / scores.length;
    case "min":
      return Math.min(...scores);
    case "max":
      return Math.max(...scores);
    case "all":
      return scores.every(passed) ? 1.0 : 0.0;
    case "any":
      return scores.some(passed) ? 1.0 : 0.0;
    case "weighted": {
      const total = evaluations.reduce((sum, e) => sum + e.weight, 0);
      if (total === 0) return 0.0;
      return evaluations.reduce((sum, e) => sum + e.score * e.weight, 0) / total;
    }
  }
}

export const countPassed = (evaluations: readonly RubricEvaluation[]) => evaluations.filter((e) => passed(e.score)).length;

// One rubric criterion judged as NeMo Gym's inverse_if does, and the scores combined into a reward.
import type { ResponsesCreateParams } from "../../protocol/index.js";
import type { Judge } from "../sdk/index.js";
import type { AggregationMode, InverseIfConfig } from "./config.js";
import { pyFormatKeywords } from "../sdk/python/format-keywords.js";
import { extractVerdict, responseText } from "./verdict.js";

/** NeMo Gym's RubricEvaluation. */
export interface RubricEvaluation {
  criterion_id: string;
  criteria: string;
  judge_prompt: string;
  judge_response: string;
  verdict: "PASS" | "FAIL";
  explanation: string;
  score: number;
}

/** What every criterion of one response is judged against. */
export interface Grading {
  prompt: string;
  modelResponse: string;
  standardResponse: string;
  template: string;
  systemPrompt: string;
}

/** `item.get(key, "")`, which must be a str for NeMo Gym's RubricEvaluation (pydantic raises otherwise: a 500). */
function textField(item: Record<string, unknown>, key: string): string {
  const value = Object.hasOwn(item, key) ? item[key] : "";
  if (typeof value !== "string") throw new TypeError(`a rubric item's ${JSON.stringify(key)} must be a string, got ${JSON.stringify(value)}`);
  return value;
}

export async function evaluateCriterion(judge: Judge, config: InverseIfConfig, item: unknown, grading: Grading): Promise<RubricEvaluation> {
  if (item === null || typeof item !== "object" || Array.isArray(item)) throw new TypeError("a rubric item must be an object (NeMo Gym calls item.get)");
  const record = item as Record<string, unknown>;
  const criterionId = textField(record, "id");
  const criteria = textField(record, "criteria");
  const judgePrompt = pyFormatKeywords(grading.template, {
    prompt: grading.prompt,
    model_response: grading.modelResponse,
    standard_response: grading.standardResponse,
    criteria,
  });
  const input: ResponsesCreateParams["input"] = [];
  if (grading.systemPrompt) input.push({ type: "message", role: "system", content: grading.systemPrompt });
  input.push({ type: "message", role: "user", content: judgePrompt });
  const judgeText = responseText(await judge({ ...structuredClone(config.judgeParams), input }));
  const [verdict, explanation] = extractVerdict(judgeText);
  if (typeof explanation !== "string") throw new TypeError(`the judge's explanation must be a string, got ${JSON.stringify(explanation)}`);
  return {
    criterion_id: criterionId,
    criteria,
    judge_prompt: judgePrompt,
    judge_response: judgeText,
    verdict,
    explanation,
    score: verdict === "PASS" ? 1.0 : 0.0,
  };
}

const passed = (score: number) => score >= 0.99;

/** NeMo Gym's _aggregate_scores; no criteria score 0. `weighted` is the mean (rubric items carry no weights). */
export function aggregateScores(scores: readonly number[], mode: AggregationMode): number {
  if (scores.length === 0) return 0.0;
  switch (mode) {
    case "mean":
    case "weighted":
      return scores.reduce((sum, s) => sum + s, 0) / scores.length;
    case "min":
      return Math.min(...scores);
    case "max":
      return Math.max(...scores);
    case "all":
      return scores.every(passed) ? 1.0 : 0.0;
    case "any":
      return scores.some(passed) ? 1.0 : 0.0;
  }
}

export const countPassed = (evaluations: readonly RubricEvaluation[]) => evaluations.filter((e) => passed(e.score)).length;

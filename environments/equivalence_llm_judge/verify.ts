// NeMo Gym's equivalence_llm_judge verify: one judge pass, an optional swapped pass, an optional full-generation rescue.
import type { VerifyRequest } from "../../protocol/index.js";
import type { Judge } from "../sdk/index.js";
import { DEFAULT_CONFIG, type EquivalenceJudgeConfig } from "./config.js";
import { judgeEquivalence, type JudgeEvaluation } from "./judge.js";
import { lastAssistantText, pyLen, questionText } from "./text.js";

export type EquivalenceTask = VerifyRequest & {
  expected_answer?: string | null;
  metadata?: Record<string, unknown> | null;
  template_metadata?: Record<string, unknown> | null;
};

export type EquivalenceVerdict = { reward: number; expected_answer: string; judge_evaluations: JudgeEvaluation[] };

/** expected_answer, else metadata.expected_answer, else "". */
function expectedAnswer(task: EquivalenceTask): string {
  if (task.expected_answer) return task.expected_answer;
  const fromMetadata = task.metadata?.expected_answer;
  return fromMetadata === undefined || fromMetadata === null ? "" : String(fromMetadata);
}

/** The row's own answer regex (template_metadata.output_regex), when the config lets rows bring one. */
function recordRegex(task: EquivalenceTask, config: EquivalenceJudgeConfig): string | null {
  if (!config.usePerRecordRegex) return null;
  const regex = task.template_metadata?.output_regex;
  if (!regex) return null;
  if (typeof regex !== "string") throw new TypeError("template_metadata.output_regex must be a string");
  return regex;
}

/** With a row regex, a long expected answer is judged on the whole generation, and gets no second pass. */
function tooLong(task: EquivalenceTask, expected: string, config: EquivalenceJudgeConfig): boolean {
  const threshold = config.extractionLengthThreshold;
  return threshold !== null && pyLen(expected) > threshold && recordRegex(task, config) !== null;
}

export async function verifyEquivalence(task: EquivalenceTask, judge: Judge, config: EquivalenceJudgeConfig = DEFAULT_CONFIG): Promise<EquivalenceVerdict> {
  const expected = expectedAnswer(task);
  const question = questionText(task.responses_create_params, config.questionExtractRegex);
  const rowRegex = recordRegex(task, config);
  const regex = tooLong(task, expected, config) ? null : (rowRegex ?? config.responseExtractRegex);
  const generated = lastAssistantText(task.response, regex, config.extractionFailureMessage);
  const done = (reward: number, judge_evaluations: JudgeEvaluation[]): EquivalenceVerdict => ({ reward, expected_answer: expected, judge_evaluations });

  const [equal, first] = await judgeEquivalence(judge, config, { question, expected, generated });
  if (!equal) {
    if (tooLong(task, expected, config) || !config.checkFullGenerationOnFail || rowRegex === null) return done(0, [first]);
    // The row's regex may have missed the answer: judge the whole generation, for partial credit.
    const full = lastAssistantText(task.response, null, config.extractionFailureMessage);
    const [rescued, second] = await judgeEquivalence(judge, config, { question, expected, generated: full });
    return done(rescued ? config.rewardIfFullGenerationSucceeds : 0, [first, second]);
  }
  if (!config.checkTwiceSwap || tooLong(task, expected, config)) return done(1, [first]);
  const [confirmed, second] = await judgeEquivalence(judge, config, { question, expected: generated, generated: expected });
  return done(confirmed ? 1 : config.rewardIfSwapFails, [first, second]);
}

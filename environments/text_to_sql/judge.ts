// One LLM-judge evaluation of two SQL queries, with NeMo Gym's prompt, labels and verdict parsing.
import type { Response, ResponsesCreateParams } from "../../protocol/index.js";
import type { Judge } from "../sdk/index.js";
import { judgeResponseText } from "./extract.js";
import { SQL_JUDGE_SYSTEM_MESSAGE, sqlJudgePrompt } from "./prompts.js";

/** NeMo Gym's text_to_sql server configuration (configs/text_to_sql.yaml defaults). */
export interface TextToSqlConfig {
  judgeSystemMessage: string;
  equalLabel: string;
  notEqualLabel: string;
  /** Ask again with A and B swapped, to catch a judge that favours a position. */
  checkTwiceSwap: boolean;
  rewardIfSwapFails: number;
}

export const DEFAULT_CONFIG: TextToSqlConfig = {
  judgeSystemMessage: SQL_JUDGE_SYSTEM_MESSAGE,
  equalLabel: "[[A=B]]",
  notEqualLabel: "[[A!=B]]",
  checkTwiceSwap: true,
  rewardIfSwapFails: 0.0,
};

/** A judge call as the verify response records it. */
export interface JudgeEvaluation {
  responses_create_params: ResponsesCreateParams;
  response: Response;
  verdict_label: string | null;
}

export interface JudgeQuestion {
  sql_dialect: string;
  sql_context: string;
  sql_prompt: string;
  /** Query A: the expected query on the first pass, the generated one on the swap pass. */
  first_answer: string;
  second_answer: string;
}

/** The verdict in the judge's text: whichever label comes first; neither means "not equal" with no label. */
export function parseVerdict(text: string, config: TextToSqlConfig): { equal: boolean; label: string | null } {
  if (!text) return { equal: false, label: null };
  const equalAt = text.indexOf(config.equalLabel);
  const notEqualAt = text.indexOf(config.notEqualLabel);
  if (equalAt >= 0 && (notEqualAt < 0 || equalAt < notEqualAt)) return { equal: true, label: config.equalLabel };
  if (notEqualAt >= 0) return { equal: false, label: config.notEqualLabel };
  return { equal: false, label: null };
}

/** Asks the judge whether the two queries are equivalent; a failed call throws the SDK's JudgeError (judge_failed). */
export async function judgeEquivalence(
  judge: Judge,
  question: JudgeQuestion,
  config: TextToSqlConfig,
): Promise<{ equal: boolean; evaluation: JudgeEvaluation }> {
  const input: ResponsesCreateParams["input"] = [];
  if (config.judgeSystemMessage) input.push({ type: "message", role: "system", content: config.judgeSystemMessage });
  input.push({ type: "message", role: "user", content: sqlJudgePrompt(question) });
  const params: ResponsesCreateParams = { input };

  const response = await judge(params);
  const verdict = parseVerdict(judgeResponseText(response), config);
  return { equal: verdict.equal, evaluation: { responses_create_params: params, response, verdict_label: verdict.label } };
}

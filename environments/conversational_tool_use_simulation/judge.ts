// NeMo Gym's judge requests for this environment: system prompts per role, the semantic retries, the answer's parsing.
import type { Response as ModelResponse } from "../../protocol/index.js";
import { pyFormat } from "../sdk/python/index.js";
import type { Models } from "../../contracts/context.js";
import { formatToolDefinitions, scenarioString, stripJsonFence } from "./format.js";
import * as P from "./prompts.js";
import { COMPLETE, type Conversation, TRANSFER, type VerificationResult } from "./state.js";

export type EvaluationType = "user" | "agent" | "environment" | "agent_conversation";

/** Sampling for every simulated role, as the environment's config sets it (temperature 1, top_p 1, 8192 tokens). */
export const SAMPLING = { temperature: 1.0, top_p: 1.0, max_output_tokens: 8192, parallel_tool_calls: false } as const;

/** _system_messages: the judge's instructions for one kind of step. */
export function systemMessage(state: Conversation, type: EvaluationType): string {
  const policy = state.policy;
  const scenario = scenarioString(state.customer_scenario);
  const tools = formatToolDefinitions(state.tool_signatures);
  const schema = P.EVALUATION_SCHEMA;
  switch (type) {
    case "user":
      return pyFormat(P.USER_MESSAGE_EVALUATION_SYSTEM_MESSAGE_TEMPLATE, {
        policy,
        customer_scenario: scenario,
        complete_indicator: COMPLETE,
        transfer_indicator: TRANSFER,
        evaluation_schema: schema,
      });
    case "agent":
      return pyFormat(P.AGENT_MESSAGE_EVALUATION_SYSTEM_MESSAGE_TEMPLATE, { policy, tool_definitions: tools, evaluation_schema: schema });
    case "environment":
      return pyFormat(P.ENVIRONMENT_MESSAGE_EVALUATION_SYSTEM_MESSAGE_TEMPLATE, {
        policy,
        customer_scenario: scenario,
        tool_definitions: tools,
        evaluation_schema: schema,
      });
    case "agent_conversation":
      return pyFormat(P.AGENT_CONVERSATION_EVALUATION_SYSTEM_MESSAGE_TEMPLATE, {
        policy,
        tool_definitions: tools,
        transfer_instruction: state.customer_scenario.outside_policy_scope ? "" : "not ",
        evaluation_schema: schema,
      });
  }
}

/** _first_response_text: the first non-empty text of the first message outputs; none is a RuntimeError (a semantic retry). */
export function firstResponseText(response: ModelResponse): string {
  for (const item of response.output) {
    if (item.type !== "message") continue;
    const content = Array.isArray(item.content) ? item.content : [];
    for (const part of content) {
      const text = (part as { text?: unknown }).text;
      if (typeof text === "string" && text) return text;
    }
  }
  throw new SemanticError(`RuntimeError('A response does not contain a message output')`);
}

/** An answer that came back but cannot be used: NeMo Gym retries it (generation_attempts) and keeps repr(exc). */
export class SemanticError extends Error {}

const BOOL_TRUE = new Set(["1", "on", "t", "true", "y", "yes"]);
const BOOL_FALSE = new Set(["0", "off", "f", "false", "n", "no"]);

/** pydantic's lax bool from JSON: true/false, 0/1, and its strings. */
function laxBool(value: unknown): boolean | undefined {
  if (typeof value === "boolean") return value;
  if (value === 0 || value === 1) return value === 1;
  if (typeof value === "string") {
    const lower = value.toLowerCase();
    if (BOOL_TRUE.has(lower)) return true;
    if (BOOL_FALSE.has(lower)) return false;
  }
  return undefined;
}

/** Evaluation.model_validate_json: `success` a bool (lax), `explanation` a string; other fields ignored. */
export function parseEvaluation<K extends string>(text: string, fields: Record<K, "bool" | "str">): Record<K, boolean | string> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new SemanticError(`ValidationError(model='Evaluation', errors=[{'type': 'json_invalid', 'msg': ${JSON.stringify(String(error))}}])`);
  }
  if (typeof data !== "object" || data === null || Array.isArray(data))
    throw new SemanticError(`ValidationError(model='Evaluation', errors=[{'type': 'model_type'}])`);
  const out = {} as Record<K, boolean | string>;
  for (const [name, kind] of Object.entries(fields) as [K, "bool" | "str"][]) {
    const value = (data as Record<string, unknown>)[name];
    const parsed = kind === "bool" ? laxBool(value) : typeof value === "string" ? value : undefined;
    if (parsed === undefined) {
      const type = value === undefined ? "missing" : kind === "bool" ? "bool_parsing" : "string_type";
      throw new SemanticError(`ValidationError(model='Evaluation', errors=[{'type': '${type}', 'loc': ('${name}',)}])`);
    }
    out[name] = parsed;
  }
  return out;
}

/**
 * The judge asked up to `attempts` times with one system and one user message, as NeMo Gym's _generate_judge_evaluation
 * and its combined twin do: an answer that does not parse as `fields` is retried; a failed call throws (judge_failed).
 * `judged` gets the parsed evaluation, the canonical answer and every response so far; after the last bad answer, the
 * last parse error and the responses.
 */
export async function askJudge<K extends string, T>(
  models: Models,
  messages: { system: string; user: string },
  attempts: number,
  fields: Record<K, "bool" | "str">,
  judged: (evaluation: Record<K, boolean | string>, canonical: string, responses: unknown[]) => T,
): Promise<T | { generation_error: string | null; responses: unknown[] }> {
  const responses: unknown[] = [];
  let generationError: string | null = null;
  for (let attempt = 0; attempt < Math.max(1, attempts); attempt++) {
    const response = await models("judge", {
      ...SAMPLING,
      input: [
        { role: "system", content: messages.system, type: "message" },
        { role: "user", content: messages.user, type: "message" },
      ],
    });
    responses.push(response);
    try {
      const canonical = stripJsonFence(firstResponseText(response));
      return judged(parseEvaluation(canonical, fields), canonical, responses);
    } catch (error) {
      if (!(error instanceof SemanticError)) throw error;
      generationError = error.message;
    }
  }
  return { generation_error: generationError, responses };
}

/** _generate_judge_evaluation: one judgment of a message of the given type. */
export function judgeEvaluation(models: Models, state: Conversation, type: EvaluationType, userMessage: string, attempts: number): Promise<VerificationResult> {
  const messages = { system: systemMessage(state, type), user: userMessage };
  return askJudge(models, messages, attempts, { success: "bool", explanation: "str" }, (evaluation, canonical, responses) => ({
    reward: evaluation.success ? 1 : 0,
    explanation: String(evaluation.explanation),
    judge_response: canonical,
    responses,
  }));
}

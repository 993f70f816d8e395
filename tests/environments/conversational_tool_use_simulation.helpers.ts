// Test helpers for conversational_tool_use_simulation: an in-memory session state and scripted models by role.
import type { ModelRole, Models } from "../../contracts/context.js";
import type { ResponsesCreateParams, Response as ResponsesResponse } from "../../protocol/index.js";
import type { SessionState } from "../../environments/sdk/types.js";
import { conversationalToolUse, DEFAULT_CONFIG } from "../../environments/conversational_tool_use_simulation/index.js";
import type { Conversation, ConversationMessage } from "../../environments/conversational_tool_use_simulation/state.js";
import { perform } from "../../environments/sdk/perform.js";
import { expect } from "vitest";

export function memoryState(): SessionState<unknown> & { value: unknown } {
  const box: { value: unknown } & SessionState<unknown> = {
    value: undefined,
    get: () => Promise.resolve(box.value === undefined ? undefined : structuredClone(box.value)),
    set: (value) => {
      box.value = structuredClone(value);
      return Promise.resolve();
    },
    clear: () => {
      box.value = undefined;
      return Promise.resolve();
    },
  };
  return box;
}

/** Models by role answering from queues; every request remembered. */
export function scriptedModels(answers: Partial<Record<ModelRole, (params: ResponsesCreateParams) => ResponsesResponse>>) {
  const asked: { role: ModelRole; params: ResponsesCreateParams }[] = [];
  const models: Models = (role, params) => {
    asked.push({ role, params });
    const answer = answers[role];
    if (!answer) return Promise.reject(new Error(`no ${role} model in this test`));
    return Promise.resolve(answer(params));
  };
  return { models, asked };
}

export function contextOf(models: Models, state = memoryState()) {
  return { sessionId: "s1", state, signal: new AbortController().signal, models, judge: (params: ResponsesCreateParams) => models("judge", params) };
}

type Json = Record<string, unknown>;

export function text(body: string): ResponsesResponse {
  return {
    id: "resp_sim",
    object: "response",
    created_at: 0,
    model: "sim",
    output: [{ type: "message", id: "m", role: "assistant", status: "completed", content: [{ type: "output_text", text: body, annotations: [] }] }],
  };
}

/** NeMo Gym's make_server: no judge unless asked, transfer ground truth off unless asked. */
export function setup(
  options: {
    judge?: boolean;
    enforce?: boolean;
    combined?: boolean;
    answers?: Partial<Record<ModelRole, (params: ResponsesCreateParams) => ResponsesResponse>>;
  } = {},
) {
  const environment = conversationalToolUse({
    ...DEFAULT_CONFIG,
    enableLlmJudge: options.judge ?? false,
    enforceTransferGroundTruth: options.enforce ?? false,
    verificationType: options.combined ? "complete_trajectory_combined_evaluation" : "message",
  });
  const state = memoryState();
  const scripted = scriptedModels(options.answers ?? {});
  const ctx = contextOf(scripted.models, state);
  const call = async (name: string, body: unknown = {}) => perform(environment, { kind: "tool", name }, body, ctx);
  return {
    state,
    asked: scripted.asked,
    conversation: () => state.value as Conversation,
    seed: (row: Json) =>
      perform(environment, { kind: "seed_session" }, { policy: "policy", domain_name: "subscription support", profile: "general", ...row }, ctx),
    call,
    body: async (name: string, body: unknown = {}) => {
      const answer = await call(name, body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body as Json;
    },
    verify: async () => {
      const answer = await perform(environment, { kind: "verify" }, { policy: "policy", responses_create_params: { input: [] }, response: text("") }, ctx);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body as Json & { result: { trajectory: Json & { messages: Json[] } } };
    },
    setMessages: (messages: ConversationMessage[], terminal: string | null = null) => {
      const value = state.value as Conversation;
      state.value = { ...value, messages, terminal_state: terminal };
    },
  };
}

// Test helpers for conversational_tool_use_simulation: an in-memory session state and scripted models by role.
import type { ModelRole, Models } from "../../contracts/context.js";
import type { ResponsesCreateParams, Response as ResponsesResponse } from "../../protocol/index.js";
import type { SessionState } from "../../environments/sdk/types.js";

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

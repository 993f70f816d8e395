// A rollout with a simulated user (NeMo Gym's conversational_tool_use agent): user turn → policy → simulated tools → … → verify.
import type { EnvironmentDescription } from "../../contracts/rpc.js";
import { servesConversation } from "../../protocol/agents.js";
import type { DatasetRow, FunctionCallItem, Item, Response as ResponsesResponse, Usage } from "../../protocol/index.js";
import { environmentCall, expectOk, modelTurn, type RolloutLimits, type RolloutParts, seedSession, verifyRollout } from "./calls.js";
import { accumulateUsage } from "./usage.js";

/** An environment that serves NeMo Gym's conversation routes has a simulated user: this loop runs it. */
export function simulatesUser(description: EnvironmentDescription): boolean {
  if (description.kind !== "simple") return false;
  return servesConversation(description.tools.map((tool) => tool.name));
}

type Json = Record<string, unknown>;
type Move = (name: string, body: Json) => Promise<Json>;

const userItem = (content: string): Item => ({ type: "message", role: "user", content }) as Item;

function messageText(item: Item): string {
  const content = (item as { content?: unknown }).content;
  if (!Array.isArray(content)) return typeof content === "string" ? content : "";
  return content
    .map((part) => (part as { text?: unknown }).text)
    .filter((text): text is string => typeof text === "string" && text !== "")
    .join("\n");
}

/** The tool output the policy sees: the simulator's raw text, or the error object as JSON. */
const outputText = (answer: Json): string => (typeof answer.output === "string" ? answer.output : JSON.stringify(answer.output ?? ""));

const isMessage = (item: Item) => item.type === "message" && (item as { role?: unknown }).role === "assistant";

/** The response as the agent uses it: one call unless parallel_tool_calls, no empty messages (NeMo Gym's filters). */
function selected(response: ResponsesResponse, parallel: boolean): Item[] {
  let called = false;
  return response.output.filter((item) => {
    if (item.type === "function_call") {
      if (called && !parallel) return false;
      called = true;
    }
    return item.type !== "message" || messageText(item).trim() !== "";
  });
}

/**
 * One user turn, its message (if any) appended; goOn false when the conversation is over. The opening turn is kept even
 * when it ends the conversation; a later one that ends it is not (NeMo Gym's agent breaks before appending it).
 */
async function userTurn(move: Move, produced: Item[], opening: boolean): Promise<{ goOn: boolean; message: string }> {
  const answer = await move("next_user_message", {});
  const message = typeof answer.message === "string" ? answer.message : "";
  const goOn = answer.should_continue !== false;
  if (message && (opening || goOn)) produced.push(userItem(message));
  return { goOn, message };
}

/** The policy loop; returns the items produced (user turns included) and the last response. */
async function converse(move: Move, row: DatasetRow, parts: RolloutParts, limits: RolloutLimits, sessionId: string, input: Item[]) {
  const params = row.responses_create_params;
  const parallel = params.parallel_tool_calls === true;
  const produced: Item[] = [];
  let usage: Usage | undefined;
  let last: ResponsesResponse | undefined;
  // A row with no conversation yet: the simulated user opens (seed_first_user_message). A prefilled one resumes where
  // it stopped, as the session (hydrated from the same history) says: user, pending tool calls, the policy, or the end.
  const conversational = input.some((item) => item.type !== "reasoning" && !["system", "developer"].includes(String((item as { role?: unknown }).role)));
  const resume = conversational ? await move("session_resume", {}) : { next_actor: "user" };
  if (resume.next_actor === "terminal") return { produced, last, usage };
  if (resume.next_actor === "user" && !(await userTurn(move, produced, true)).goOn) return { produced, last, usage };
  if (resume.next_actor === "environment") {
    const pending = Array.isArray(resume.pending_tool_calls) ? (resume.pending_tool_calls as Json[]) : [];
    for (const call of pending) {
      const answer = await move("execute_agent_tool_call", { ...call, response: null });
      produced.push({ type: "function_call_output", call_id: String(call.tool_call_id), output: outputText(answer), id: null, status: null } as Item);
      if (answer.should_continue === false) return { produced, last, usage };
    }
  }
  for (let step = 1; ; step++) {
    const response = await modelTurn(parts, { ...params, input: [...input, ...produced] }, sessionId, limits);
    const output = selected(response, parallel);
    last = { ...response, output };
    produced.push(...output);
    usage = accumulateUsage(usage, response.usage);
    const atLimit = step >= limits.maxSteps;
    if (response.incomplete_details) {
      await move("record_generation_error", { source: "agent", error: `Model response was incomplete: ${JSON.stringify(response.incomplete_details)}` });
      break;
    }
    const outputs = output.flatMap((item, index): Json[] => {
      if (isMessage(item)) return [{ type: "message", content: messageText(item), response_output_index: index }];
      if (item.type !== "function_call") return [];
      const call = item as FunctionCallItem;
      return [{ type: "function_call", tool_name: call.name, tool_call_id: call.call_id, arguments: call.arguments, response_output_index: index }];
    });
    if (outputs.length && (await move("record_agent_outputs", { outputs, response: last })).should_continue === false) break;
    const calls = output.filter((item): item is FunctionCallItem => item.type === "function_call");
    if (calls.length) {
      if (atLimit) {
        await move("record_agent_step_limit", { max_agent_steps: limits.maxSteps, tool_calls: [], response: last });
        break;
      }
      let goOn = true;
      for (const call of calls) {
        const answer = await move("execute_agent_tool_call", { tool_name: call.name, tool_call_id: call.call_id, arguments: call.arguments, response: last });
        produced.push({ type: "function_call_output", call_id: call.call_id, output: outputText(answer), id: null, status: null } as Item);
        if (answer.should_continue === false) {
          goOn = false;
          break;
        }
      }
      if (!goOn) break;
    } else if (outputs.length) {
      const { goOn, message } = await userTurn(move, produced, false);
      if (!goOn) break;
      if (atLimit) {
        await move("record_agent_step_limit", { max_agent_steps: limits.maxSteps, tool_calls: [], response: last });
        break;
      }
      if (!message) break;
    } else {
      await move("record_generation_error", { source: "agent", error: "No text message or function call was found in the output list of a response" });
      break;
    }
  }
  return { produced, last, usage };
}

/** Runs one conversation rollout and returns NeMo Gym's verify response for it. */
export async function runConversation(row: DatasetRow, parts: RolloutParts, limits: RolloutLimits): Promise<Record<string, unknown>> {
  const sessionId = await seedSession(row, parts, limits);
  const move: Move = async (name, body) => {
    const outcome = await environmentCall(() => parts.resources.tool(sessionId, name, body, parts.owner), `/${name}`, limits, "environment_error");
    return expectOk(outcome, `/${name}`, "environment_error") as Json;
  };
  const params = row.responses_create_params;
  const input: Item[] = typeof params.input === "string" ? [userItem(params.input)] : params.input;
  let verified = false;
  try {
    const { produced, last, usage } = await converse(move, row, parts, limits, sessionId, input);
    // The user turns before the first policy output belong to the input (NeMo Gym's canonical transcript).
    let lead = 0;
    while (lead < produced.length && (produced[lead] as { role?: unknown }).role === "user") lead++;
    const base = last ?? { id: "resp_empty", object: "response", created_at: 0, model: "", output: [] };
    const request = {
      ...row,
      responses_create_params: { ...params, input: [...input, ...produced.slice(0, lead)] },
      response: { ...base, output: produced.slice(lead), usage: usage ?? null },
    };
    const answer = await verifyRollout(sessionId, request, parts, limits);
    verified = true;
    return answer;
  } finally {
    // As NeMo Gym's agent: a session that did not reach a verified end is discarded (best effort).
    if (!verified) await parts.resources.tool(sessionId, "discard_session", {}, parts.owner).catch(() => undefined);
  }
}

// /seed_session: the conversation state from a row, its prefilled Responses history hydrated as NeMo Gym does.
import { EdgegymError } from "../../protocol/index.js";
import { validateMessage } from "./format.js";
import { type Conversation, type ConversationMessage, failureLabelFor, isCompleteMessage, newConversation, recordFailure, type Task } from "./state.js";
import type { z } from "zod";

const bad = (detail: string) => new EdgegymError(400, "bad_request", detail);

type Item = Record<string, unknown>;
const field = (item: unknown, name: string): unknown => (item && typeof item === "object" ? (item as Item)[name] : undefined);

function itemType(item: unknown): string | null {
  const type = field(item, "type");
  if (type !== undefined && type !== null) return String(type);
  if (field(item, "role") != null) return "message";
  if (field(item, "output") != null) return "function_call_output";
  if (field(item, "name") != null) return "function_call";
  return null;
}

function requiredString(item: unknown, name: string): string {
  const value = field(item, name);
  if (typeof value !== "string") throw bad(`Prefilled input item field ${name} must be a string.`);
  return value;
}

function itemText(item: unknown): string {
  const content = field(item, "content");
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    const parts: string[] = [];
    for (const part of content) {
      const text = field(part, "text");
      if (!["input_text", "output_text"].includes(String(field(part, "type"))) || typeof text !== "string") {
        throw bad("Prefilled user and assistant messages must contain only text.");
      }
      parts.push(text);
    }
    return parts.join("");
  }
  throw bad("Prefilled user and assistant messages must contain only text.");
}

/** _append_prefilled_message: validated on the way in; an invalid one ends the trajectory, a user's stop marker completes it. */
export function appendPrefilled(state: Conversation, message: ConversationMessage): void {
  if (state.terminal_state !== null) throw bad("Prefilled history continues after a terminal message.");
  const invalid = validateMessage(state, message);
  state.messages.push(message);
  if (message.type === "tool_execution") message.schema_valid = invalid === undefined;
  if (invalid) recordFailure(state, invalid[0], failureLabelFor(message.source), invalid[1]);
  else if (message.source === "user" && isCompleteMessage(message)) state.terminal_state = "complete";
}

function hydrate(state: Conversation, input: unknown): void {
  if (input === undefined || input === null) return;
  const items: unknown[] = typeof input === "string" ? [{ role: "user", content: input }] : Array.isArray(input) ? input : [];
  const calls = new Map<string, ConversationMessage>();
  const executed = new Set<string>();
  for (const item of items) {
    const type = itemType(item);
    const role = field(item, "role") == null ? null : String(field(item, "role"));
    if (type === "reasoning" || role === "system" || role === "developer") continue;
    if (type === "message") {
      if (role !== "user" && role !== "assistant") throw bad(`Unsupported prefilled message role: ${role ?? "None"}.`);
      appendPrefilled(state, { type: "text", source: role === "user" ? "user" : "agent", content: itemText(item) });
    } else if (type === "function_call") {
      const id = field(item, "call_id");
      if (typeof id !== "string" || calls.has(id)) throw bad("Prefilled function calls must have unique call_id values.");
      const call: ConversationMessage = {
        type: "tool_call",
        source: "agent",
        tool_call_id: id,
        tool_name: requiredString(item, "name"),
        arguments: requiredString(item, "arguments"),
      };
      appendPrefilled(state, call);
      calls.set(id, call);
    } else if (type === "function_call_output") {
      const id = requiredString(item, "call_id");
      const call = calls.get(id);
      if (!call) throw bad(`Prefilled tool output references unknown call_id ${id}.`);
      if (executed.has(id)) throw bad(`Prefilled tool call ${id} has more than one output.`);
      appendPrefilled(state, {
        type: "tool_execution",
        source: "environment",
        tool_call_id: id,
        tool_name: call.tool_name ?? null,
        arguments: call.arguments ?? null,
        content: requiredString(item, "output"),
      });
      executed.add(id);
    } else {
      throw bad(`Unsupported prefilled input item type: ${type ?? "None"}.`);
    }
  }
}

/** seed_session: the state, the prefilled history, and `initial_user_message` merged as NeMo Gym merges it. */
export function seedConversation(task: z.output<typeof Task>, params: unknown): Conversation {
  const state = newConversation(task);
  hydrate(state, field(params, "input"));
  const users = state.messages.filter((m) => m.type === "text" && m.source === "user");
  const initial = task.initial_user_message;
  if (initial !== null && initial !== undefined) {
    if (users.length) {
      if (users[0]!.content !== initial) throw bad("initial_user_message must match the first user message in responses_create_params.input.");
    } else if (state.messages.length) {
      throw bad("initial_user_message cannot be merged into an existing prefilled history without a user message.");
    } else {
      appendPrefilled(state, { type: "text", source: "user", content: initial });
    }
  }
  state.prefill_message_count = state.messages.length;
  return state;
}

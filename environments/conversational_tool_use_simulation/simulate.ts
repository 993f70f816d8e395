// The simulated customer (role `user`) and tool results (role `tool_simulator`), with NeMo Gym's prompts and parsing.
import type { Models } from "../../contracts/context.js";
import type { Response as ModelResponse } from "../../protocol/index.js";
import { pyFormat, pySub } from "../sdk/python/index.js";
import { formatToolDefinitions, scenarioString } from "./format.js";
import { firstResponseText, SAMPLING } from "./judge.js";
import * as P from "./prompts.js";
import { COMPLETE, type Conversation, type ConversationMessage, pyStrOf, TRANSFER } from "./state.js";

type Turn = { role: "system" | "user" | "assistant"; content: string; type: "message" };
const turn = (role: Turn["role"], content: string): Turn => ({ role, content, type: "message" });

/** The model's answer as the record keeps it (model_dump of the response). */
const dumped = (response: ModelResponse): Record<string, unknown> => ({ ...response });

/** _user_simulator_messages: the customer sees its own turns as the assistant's, the representative's as the user's. */
export function userSimulatorMessages(state: Conversation): Turn[] {
  const system = pyFormat(P.USER_SIMULATOR_SYSTEM_MESSAGE_TEMPLATE, {
    complete_indicator: COMPLETE,
    transfer_indicator: TRANSFER,
    customer_scenario: scenarioString(state.customer_scenario, true),
  });
  const messages = [turn("system", system)];
  for (const message of state.messages) {
    if (message.type !== "text") continue;
    if (message.source === "environment") throw new Error("NotImplementedError: a text message from the environment");
    const customer = message.source === "user";
    messages.push(turn(customer ? "assistant" : "user", `${customer ? "Customer" : "Representative"}: ${pyStrOf(message.content)}`));
  }
  return messages;
}

/** _generate_user_message: the user role's first text, a leading "Customer:" removed (any case). */
export async function generateUserMessage(models: Models, state: Conversation): Promise<[string, Record<string, unknown>]> {
  const response = await models("user", { ...SAMPLING, input: userSimulatorMessages(state) });
  return [pySub("^\\s*Customer:\\s*", firstResponseText(response), () => "", { ignoreCase: true }), dumped(response)];
}

function environmentSystem(state: Conversation): Turn {
  return turn(
    "system",
    pyFormat(P.ENVIRONMENT_SIMULATOR_SYSTEM_MESSAGE_TEMPLATE, {
      domain_policy: state.policy,
      customer_scenario: scenarioString(state.customer_scenario),
      tool_definitions: formatToolDefinitions(state.tool_signatures),
    }),
  );
}

function callTurn(conversation: string[], call: ConversationMessage): Turn {
  const text = conversation.length ? pyFormat(P.ENVIRONMENT_CONVERSATION_TEMPLATE, { conversation: conversation.join("\n\n") }) : "";
  return turn(
    "user",
    pyFormat(P.ENVIRONMENT_USER_MODEL_MESSAGE_TEMPLATE, { conversation: text, tool_name: call.tool_name ?? "None", arguments: call.arguments ?? "None" }),
  );
}

function conversationLine(message: ConversationMessage): string {
  const sender = message.source === "user" ? "customer" : "representative";
  return pyFormat(P.ENVIRONMENT_CONVERSATION_MESSAGE_TEMPLATE, { sender, message: pyStrOf(message.content) });
}

/** _environment_simulator_messages: each tool call a user turn (with the talk since the last result), each result an assistant turn. */
export function environmentSimulatorMessages(state: Conversation): Turn[] {
  const messages = [environmentSystem(state)];
  const conversation: string[] = [];
  for (const message of state.messages) {
    if (message.type === "text") {
      if (message.source === "environment") throw new Error("NotImplementedError: a text message from the environment");
      conversation.push(conversationLine(message));
    } else if (message.type === "tool_call") {
      messages.push(callTurn(conversation, message));
    } else {
      messages.push(turn("assistant", pyStrOf(message.content)));
      conversation.length = 0;
    }
  }
  return messages;
}

/** _environment_simulator_messages_for_pending_call: a prefilled call resumed, the completed calls paired with their results. */
export function pendingCallMessages(state: Conversation, pending: ConversationMessage): Turn[] {
  const messages = [environmentSystem(state)];
  const conversation: string[] = [];
  const calls = new Map(state.messages.filter((m) => m.type === "tool_call" && m.tool_call_id != null).map((m) => [m.tool_call_id, m]));
  for (const message of state.messages) {
    if (message.type === "text") conversation.push(conversationLine(message));
    else if (message.type === "tool_execution") {
      const call = calls.get(message.tool_call_id);
      if (!call) continue;
      messages.push(callTurn(conversation, call), turn("assistant", pyStrOf(message.content)));
      conversation.length = 0;
    }
  }
  messages.push(callTurn(conversation, pending));
  return messages;
}

/** _generate_tool_result: the tool simulator's first text, kept raw (validation parses a copy). */
export async function generateToolResult(models: Models, state: Conversation, pending?: ConversationMessage): Promise<[string, Record<string, unknown>]> {
  const input = pending ? pendingCallMessages(state, pending) : environmentSimulatorMessages(state);
  const response = await models("tool_simulator", { ...SAMPLING, input });
  return [firstResponseText(response), dumped(response)];
}

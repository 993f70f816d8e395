// Reads a chat request into what the policy needs: the task, the tools, and the calls made so far.
import type { ChatCompletionRequest, ChatTool } from "./schema.js";
import { canonicalJson, isRecord, messageText, parseMaybeJson } from "./text.js";

export interface ToolInfo {
  name: string;
  description: string;
  /** The tool's JSON Schema for its arguments ({} when it declares none). */
  parameters: Record<string, unknown>;
}

/** A tool call the assistant already made in the current turn, with its output once it exists. */
export interface MadeCall {
  id: string;
  name: string;
  /** Parsed arguments, or the raw string when they were not JSON. */
  args: unknown;
  /** Canonical JSON of the arguments, for comparing with planned calls. */
  key: string;
  hasOutput: boolean;
  /** The tool message's content, parsed as JSON when possible. */
  output: unknown;
}

export interface Conversation {
  /** System and developer text, joined. */
  system: string;
  /** The last user message: the task the assistant is working on. */
  user: string;
  tools: ToolInfo[];
  /** Calls made after the last user message, in order. */
  calls: MadeCall[];
  /** Assistant messages with tool calls after the last user message. */
  rounds: number;
  /** Whether several calls may go in one assistant message (vLLM's default is yes). */
  parallel: boolean;
}

export function toolInfo(tool: ChatTool): ToolInfo {
  const { name, description, parameters } = tool.function;
  return { name, description: description ?? "", parameters: parameters ?? {} };
}

export function readConversation(request: ChatCompletionRequest): Conversation {
  const { messages } = request;
  const system = messages
    .filter((m) => m.role === "system" || m.role === "developer")
    .map(messageText)
    .join("\n");

  // Only what follows the last user message belongs to the current task; earlier turns are done.
  let lastUser = -1;
  messages.forEach((m, i) => {
    if (m.role === "user") lastUser = i;
  });
  const user = lastUser >= 0 ? messageText(messages[lastUser]!) : "";

  const calls: MadeCall[] = [];
  let rounds = 0;
  for (const message of messages.slice(lastUser + 1)) {
    if (message.role === "assistant" && message.tool_calls && message.tool_calls.length > 0) {
      rounds += 1;
      for (const call of message.tool_calls) {
        const args = parseMaybeJson(call.function.arguments);
        calls.push({
          id: call.id,
          name: call.function.name,
          args,
          key: canonicalJson(isRecord(args) ? args : call.function.arguments),
          hasOutput: false,
          output: undefined,
        });
      }
    } else if (message.role === "tool" || message.role === "function") {
      // Match by id; clients that drop ids get the oldest call still waiting for an output.
      const target = calls.find((c) => !c.hasOutput && c.id === message.tool_call_id) ?? calls.find((c) => !c.hasOutput);
      if (target) {
        target.hasOutput = true;
        target.output = parseMaybeJson(messageText(message));
      }
    }
  }

  let tools = (request.tools ?? []).map(toolInfo);
  const choice = request.tool_choice;
  if (choice === "none") tools = [];
  else if (isRecord(choice)) tools = tools.filter((t) => t.name === choice.function.name);

  return { system, user, tools, calls, rounds, parallel: request.parallel_tool_calls !== false };
}

/** Property schemas and required names of a tool's parameters, read defensively. */
export function toolProperties(tool: ToolInfo): {
  properties: Record<string, Record<string, unknown>>;
  required: string[];
} {
  const raw = tool.parameters["properties"];
  const properties: Record<string, Record<string, unknown>> = {};
  if (isRecord(raw)) {
    for (const [name, schema] of Object.entries(raw)) properties[name] = isRecord(schema) ? schema : {};
  }
  const requiredRaw = tool.parameters["required"];
  const required = Array.isArray(requiredRaw) ? requiredRaw.filter((r): r is string => typeof r === "string") : [];
  return { properties, required };
}

/** A readable one-line rendering of a tool output, for final answers. */
export function describeOutput(output: unknown): string {
  if (typeof output === "string") return output.trim();
  if (isRecord(output)) {
    // Prefer a sentence the tool already wrote (e.g. "The weather in X is cold.").
    const sentence = Object.values(output).find((v): v is string => typeof v === "string" && /\s/.test(v.trim()));
    if (sentence) return sentence.trim();
  }
  const json = JSON.stringify(output) ?? "null";
  return json.length > 200 ? `${json.slice(0, 200)}…` : json;
}

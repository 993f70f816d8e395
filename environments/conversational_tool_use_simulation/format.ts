// How NeMo Gym writes the conversation for its judge and simulators, and how it validates each message entering it.
import { pyFormat, PythonJsonDecodeError, pyJsonValue, pySplitlines, pyStrip, pythonJsonDumps } from "../sdk/python/index.js";
import * as P from "./prompts.js";
import { SchemaValidationError, validate } from "./schema.js";
import {
  type Conversation,
  type ConversationMessage,
  type CustomerScenario,
  findTool,
  InvalidReason,
  isCompleteMessage,
  normalizedDoc,
  normalizedParams,
  pyStrOf,
  type ToolSignature,
} from "./state.js";

/** textwrap.indent(text, "\t"): every line that is not only whitespace gains the prefix. */
function indent(text: string): string {
  return pySplitlines(text, true)
    .map((line) => (pyStrip(line) ? `\t${line}` : line))
    .join("");
}

/** CustomerScenario.create_string. */
export function scenarioString(scenario: CustomerScenario, includeDomain = false): string {
  const lines = ["Customer persona:", indent(scenario.customer_persona)];
  if (includeDomain) lines.push(`Domain of representative: ${scenario.representative_domain ?? "None"}`);
  lines.push("Reason for contacting representative:", indent(scenario.reason_for_contact));
  lines.push("Customer details:", indent(scenario.customer_details));
  if (scenario.unknown_info !== null && scenario.unknown_info !== undefined) lines.push("Unknown info:", indent(scenario.unknown_info));
  lines.push("Task instructions:", indent(scenario.task_instructions));
  return lines.join("\n");
}

export function formatToolDefinitions(tools: readonly ToolSignature[]): string {
  return tools
    .map((tool) =>
      pyFormat(P.TOOL_DEFINITION_TEMPLATE, {
        name: tool.name,
        documentation: normalizedDoc(tool),
        parameters: pythonJsonDumps(normalizedParams(tool)),
        return_type: pythonJsonDumps(tool.returns ?? null),
      }),
    )
    .join("\n\n");
}

const orNone = (value: string | null | undefined): string => value ?? "None";

export function formatMessage(message: ConversationMessage): string {
  if (message.type === "text") {
    if (message.source === "environment") throw new Error("NotImplementedError: a text message from the environment");
    return pyFormat(P.TEXT_MESSAGE_TEMPLATE, { sender: message.source === "user" ? "Customer" : "Representative", content: pyStrOf(message.content) });
  }
  if (message.type === "tool_call") {
    return pyFormat(P.TOOL_CALL_MESSAGE_TEMPLATE, {
      execution_id: orNone(message.tool_call_id),
      tool_name: orNone(message.tool_name),
      arguments: orNone(message.arguments),
    });
  }
  return pyFormat(P.TOOL_EXECUTION_MESSAGE_TEMPLATE, { execution_id: orNone(message.tool_call_id), execution_result: pyStrOf(message.content) });
}

export const formatMessageList = (messages: readonly ConversationMessage[]): string => messages.map(formatMessage).join("\n\n");

/** str.strip().removeprefix("```json").removesuffix("```"). */
export function stripJsonFence(text: string): string {
  let out = pyStrip(text);
  if (out.startsWith("```json")) out = out.slice(7);
  if (out.endsWith("```")) out = out.slice(0, -3);
  return out;
}

/** JSON values as the record keeps them: Python's ints are exact while validating, plain numbers once stored. */
function plain(value: unknown): unknown {
  if (typeof value === "bigint") return Number(value);
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return value;
}

type Invalid = [reason: string, error: string] | undefined;

function checkJson(text: string, schema: Record<string, unknown>, messages: { decode: string; schema: string }): { value: unknown } | { invalid: Invalid } {
  try {
    const value = pyJsonValue(text);
    validate(value, schema);
    return { value: plain(value) };
  } catch (error) {
    if (error instanceof PythonJsonDecodeError) return { invalid: [messages.decode, error.msg] };
    if (error instanceof SchemaValidationError) return { invalid: [messages.schema, error.message] };
    throw error;
  }
}

/** _validate_message: undefined when the message may enter the conversation, else the invalid reason and the error. */
export function validateMessage(state: Conversation, message: ConversationMessage): Invalid {
  if (message.type === "text") {
    if (message.source === "user" && state.messages.length < 1 && isCompleteMessage(message)) {
      return [
        InvalidReason.user,
        `The first message in a trajectory from the user contains an indicator that the trajectory is complete: ${pyStrOf(message.content)}`,
      ];
    }
    return undefined;
  }
  const name = message.tool_name ?? "";
  const id = orNone(message.tool_call_id);
  const tool = findTool(state, name);
  if (message.type === "tool_call") {
    if (!tool) return [InvalidReason.agentToolCall, `The tool ${name} in the tool call with the ID ${id} is unknown`];
    const schema = normalizedParams(tool);
    if (schema === null) return undefined;
    const checked = checkJson(message.arguments ?? "", schema, {
      decode: `The arguments string in the tool call with the ID ${id} could not be converted to a JSON object: `,
      schema: `The arguments object in the tool call with the ID ${id} is not valid under the ${name} tool parameters JSON Schema: `,
    });
    if ("invalid" in checked) return checked.invalid && [InvalidReason.agentToolCall, checked.invalid[0] + checked.invalid[1]];
    message.deserialized_arguments = checked.value;
    return undefined;
  }
  if (!tool) return [InvalidReason.toolExecution, `The tool ${name} in the tool execution with the ID ${id} is unknown`];
  if (!tool.returns) return undefined;
  let result = pyStrOf(message.content);
  if (pyStrip(result).startsWith("```json")) result = stripJsonFence(result);
  const checked = checkJson(result, tool.returns, {
    decode: `The execution result for the tool call with the ID ${id} could not be converted to a JSON object: `,
    schema: `The execution result for the tool call with the ID ${id} is not valid under the ${name} tool return type JSON Schema: `,
  });
  if ("invalid" in checked) return checked.invalid && [InvalidReason.toolExecution, checked.invalid[0] + checked.invalid[1]];
  message.deserialized_execution_result = checked.value;
  return undefined;
}

// What NeMo Gym's structured_outputs reads from a response: the text of all messages, or the one function call's payload.
import type { Response } from "../../protocol/index.js";
import { jsonLoads } from "./python/json.js";
import { PyError, describeError, isDict, pyRepr, type PyValue } from "./python/value.js";
import type { Evaluation } from "./evaluate.js";

/**
 * Every output_text part of every message item, joined without a separator (any role; other items skipped).
 * A message whose content is a plain string cannot be read part by part, and fails the request as in NeMo Gym.
 */
export function responseText(response: Response): string {
  let text = "";
  for (const item of response.output) {
    if (item.type !== "message") continue;
    if (typeof item.content === "string") throw new PyError("AttributeError", "'str' object has no attribute 'type'");
    for (const part of item.content) if (part.type === "output_text") text += part.text ?? "";
  }
  return text;
}

/** str() of the response's error object, as pydantic prints a model: `code='…' message='…'`. */
function errorText(error: unknown): string {
  if (error && typeof error === "object" && !Array.isArray(error)) {
    return Object.entries(error)
      .map(([key, value]) => `${key}=${typeof value === "string" ? pyRepr(value) : JSON.stringify(value)}`)
      .join(" ");
  }
  return String(error);
}

export interface PayloadOptions {
  toolName: string | null;
  toolPayloadKey: string | null;
}

/** extract_tool_call_payload: exactly one function call, the expected tool, JSON arguments, the wrapper key if any. */
export function toolCallPayload(response: Response, options: PayloadOptions): { payload: PyValue } | Evaluation {
  const fail = (error_type: string, error_message: string): Evaluation => ({ reward: 0.0, error_type, error_message });
  if (response.error !== undefined && response.error !== null) return fail("api_error", [...errorText(response.error)].slice(0, 200).join(""));

  const calls = response.output.filter((item) => item.type === "function_call");
  if (calls.length === 0) return fail("missing_tool_call", "No function_call item found in assistant response");
  if (calls.length > 1) return fail("multiple_tool_calls", `Expected exactly one function_call, got: ${calls.map((c) => c.name).join(", ")}`);
  const call = calls[0]!;
  if (options.toolName && call.name !== options.toolName) {
    return fail("wrong_tool_name", `Expected tool '${options.toolName}', got: ${call.name}`);
  }

  let args: PyValue;
  try {
    args = jsonLoads(call.arguments);
  } catch (error) {
    // Only a JSONDecodeError is scored; anything else (RecursionError) escapes, as in NeMo Gym.
    if (error instanceof PyError && error.pyType === "JSONDecodeError") return fail("tool_arguments_parse_error", describeError(error));
    throw error;
  }
  if (options.toolPayloadKey) {
    if (!isDict(args) || !args.has(options.toolPayloadKey)) return fail("missing_tool_payload_key", `Missing tool payload key: ${options.toolPayloadKey}`);
    return { payload: args.get(options.toolPayloadKey)! };
  }
  return { payload: args };
}

// Builds OpenAI/vLLM wire objects: chat completions, streamed chunks, and error bodies.
import { randomBytes } from "node:crypto";
import type { ChatCompletionRequest, FinishReason } from "./schema.js";
import { countTokens, messageText } from "./text.js";

export interface WireToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** What the simulator decided to say, before it is wrapped for the wire. */
export interface Reply {
  content: string | null;
  tool_calls: WireToolCall[];
  finish_reason: FinishReason;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface ChatCompletion {
  id: string;
  object: "chat.completion";
  created: number;
  model: string;
  choices: Array<{
    index: 0;
    message: { role: "assistant"; content: string | null; tool_calls?: WireToolCall[] };
    finish_reason: FinishReason;
    logprobs: null;
  }>;
  usage: Usage;
}

export interface ChunkDelta {
  role?: "assistant";
  content?: string;
  tool_calls?: Array<{
    index: number;
    id?: string;
    type?: "function";
    function: { name?: string; arguments: string };
  }>;
}

export interface ChatCompletionChunk {
  id: string;
  object: "chat.completion.chunk";
  created: number;
  model: string;
  choices: Array<{ index: 0; delta: ChunkDelta; logprobs: null; finish_reason: FinishReason | null }>;
  usage?: Usage;
}

export function completionId(): string {
  return `chatcmpl-${randomBytes(16).toString("hex")}`;
}

export function toolCallId(): string {
  return `call_${randomBytes(12).toString("hex")}`;
}

export function toWireToolCall(name: string, args: Record<string, unknown> | string): WireToolCall {
  return {
    id: toolCallId(),
    type: "function",
    function: { name, arguments: typeof args === "string" ? args : JSON.stringify(args) },
  };
}

/** Approximate prompt tokens: message text, earlier tool calls, and the tool definitions. */
export function promptTokens(request: ChatCompletionRequest): number {
  let total = 0;
  for (const message of request.messages) {
    total += 1 + countTokens(messageText(message));
    for (const call of message.tool_calls ?? []) {
      total += countTokens(call.function.name) + countTokens(call.function.arguments);
    }
  }
  if (request.tools && request.tools.length > 0) total += countTokens(JSON.stringify(request.tools));
  return total;
}

export function usageFor(request: ChatCompletionRequest, reply: Reply): Usage {
  const prompt = promptTokens(request);
  let completion = countTokens(reply.content ?? "");
  for (const call of reply.tool_calls) {
    completion += countTokens(call.function.name) + countTokens(call.function.arguments);
  }
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

export function buildCompletion(model: string, reply: Reply, usage: Usage): ChatCompletion {
  const message: ChatCompletion["choices"][number]["message"] = { role: "assistant", content: reply.content };
  if (reply.tool_calls.length > 0) message.tool_calls = reply.tool_calls;
  return {
    id: completionId(),
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message, finish_reason: reply.finish_reason, logprobs: null }],
    usage,
  };
}

/**
 * The chunks vLLM streams for one reply: the role, the content word by word, each tool call's
 * header then its arguments, a last chunk with the finish reason, and optionally usage.
 */
export function buildChunks(model: string, reply: Reply, usage: Usage | null): ChatCompletionChunk[] {
  const id = completionId();
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: ChunkDelta, finish: FinishReason | null = null): ChatCompletionChunk => ({
    id,
    object: "chat.completion.chunk",
    created,
    model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });

  const chunks = [chunk({ role: "assistant", content: "" })];
  for (const piece of reply.content?.match(/\S+\s*|\s+/g) ?? []) chunks.push(chunk({ content: piece }));
  reply.tool_calls.forEach((call, index) => {
    chunks.push(
      chunk({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } }] }),
    );
    chunks.push(chunk({ tool_calls: [{ index, function: { arguments: call.function.arguments } }] }));
  });
  chunks.push(chunk({}, reply.finish_reason));
  if (usage) chunks.push({ id, object: "chat.completion.chunk", created, model, choices: [], usage });
  return chunks;
}

const ERROR_TYPES: Record<number, string> = {
  400: "BadRequestError",
  401: "AuthenticationError",
  403: "PermissionDeniedError",
  404: "NotFoundError",
  405: "MethodNotAllowedError",
  408: "RequestTimeoutError",
  409: "ConflictError",
  413: "PayloadTooLargeError",
  422: "UnprocessableEntityError",
  429: "RateLimitError",
  500: "InternalServerError",
  502: "BadGatewayError",
  503: "ServiceUnavailableError",
  504: "GatewayTimeoutError",
};

export interface ErrorBody {
  error: { message: string; type: string; param: string | null; code: number };
}

/** vLLM's error envelope (OpenAI-compatible). */
export function errorBody(status: number, message: string, param: string | null = null): ErrorBody {
  const type = ERROR_TYPES[status] ?? (status >= 500 ? "InternalServerError" : "BadRequestError");
  return { error: { message, type, param, code: status } };
}

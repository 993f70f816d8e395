// Builds vLLM's wire objects: chat completions (token ids and logprobs when asked), streamed chunks, error bodies.
import { randomBytes } from "node:crypto";
import type { Generation, WireToolCall } from "./generation.js";
import type { ChatCompletionRequest, FinishReason } from "./schema.js";
import { decodeTokens } from "./template.js";

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: null;
}

/** vLLM 0.9–0.15 call it `reasoning_content`, 0.16+ `reasoning`. */
export type ReasoningField = "reasoning_content" | "reasoning";

/** What shapes an answer besides the generation: the request's token options and the server's. */
export interface AnswerShape {
  model: string;
  promptIds: number[];
  reasoningField: ReasoningField;
  /** Whether this "vLLM" knows `return_token_ids` (0.10.2+); older ones ignore the field. */
  supportsReturnTokenIds: boolean;
}

interface LogprobEntry {
  token: string;
  logprob: number;
  bytes: number[];
  top_logprobs: Array<{ token: string; logprob: number; bytes: number[] }>;
}

export function completionId(): string {
  return `chatcmpl-${randomBytes(16).toString("hex")}`;
}

export function usageOf(shape: AnswerShape, generation: Generation): Usage {
  const prompt = shape.promptIds.length;
  return { prompt_tokens: prompt, completion_tokens: generation.ids.length, total_tokens: prompt + generation.ids.length, prompt_tokens_details: null };
}

/** `logprobs.content` as vLLM writes it: `token_id:<n>` tokens when asked, top alternatives when top_logprobs > 0. */
export function logprobsOf(request: ChatCompletionRequest, generation: Generation, from = 0, to = generation.ids.length): { content: LogprobEntry[] } | null {
  if (!request.logprobs) return null;
  const asIds = request.return_tokens_as_token_ids === true;
  const top = request.top_logprobs ?? 0;
  const entry = (id: number, logprob: number) => {
    const text = decodeTokens([id]);
    return { token: asIds ? `token_id:${id}` : text, logprob, bytes: [...Buffer.from(text, "utf8")] };
  };
  const content: LogprobEntry[] = [];
  for (let i = from; i < to; i++) {
    const id = generation.ids[i]!;
    const chosen = entry(id, generation.logprobs[i]!);
    const alternatives = Array.from({ length: Math.max(0, top - 1) }, (_, k) => entry(id + k + 1, chosen.logprob - (k + 1)));
    content.push({ ...chosen, top_logprobs: top > 0 ? [{ token: chosen.token, logprob: chosen.logprob, bytes: chosen.bytes }, ...alternatives] : [] });
  }
  return { content };
}

function wantsTokenIds(request: ChatCompletionRequest, shape: AnswerShape): boolean {
  return request.return_token_ids === true && shape.supportsReturnTokenIds;
}

export function buildCompletion(request: ChatCompletionRequest, shape: AnswerShape, generation: Generation): Record<string, unknown> {
  const message: Record<string, unknown> = {
    role: "assistant",
    content: generation.content,
    refusal: null,
    annotations: null,
    audio: null,
    function_call: null,
    tool_calls: generation.toolCalls,
    [shape.reasoningField]: generation.reasoning,
  };
  const tokenIds = wantsTokenIds(request, shape);
  return {
    id: completionId(),
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: shape.model,
    choices: [
      {
        index: 0,
        message,
        logprobs: logprobsOf(request, generation),
        finish_reason: generation.finishReason,
        stop_reason: null,
        ...(tokenIds ? { token_ids: generation.ids } : {}),
      },
    ],
    service_tier: null,
    system_fingerprint: null,
    usage: usageOf(shape, generation),
    prompt_logprobs: null,
    prompt_token_ids: tokenIds ? shape.promptIds : null,
    kv_transfer_params: null,
  };
}

/**
 * The chunks vLLM streams for one generation: the role (with `prompt_token_ids`), the reasoning, the content word by
 * word, each tool call's header then its arguments, then the finish reason carrying the generation's token ids and
 * logprobs, and usage if asked.
 */
export function buildChunks(request: ChatCompletionRequest, shape: AnswerShape, generation: Generation): Record<string, unknown>[] {
  const id = completionId();
  const created = Math.floor(Date.now() / 1000);
  const tokenIds = wantsTokenIds(request, shape);
  const chunk = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}, top: Record<string, unknown> = {}): Record<string, unknown> => ({
    id,
    object: "chat.completion.chunk",
    created,
    model: shape.model,
    ...top,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: null, ...extra }],
  });

  const chunks = [chunk({ role: "assistant", content: "" }, {}, tokenIds ? { prompt_token_ids: shape.promptIds } : {})];
  if (generation.reasoning) chunks.push(chunk({ [shape.reasoningField]: generation.reasoning }));
  for (const piece of generation.content?.match(/\S+\s*|\s+/g) ?? []) chunks.push(chunk({ content: piece }));
  generation.toolCalls.forEach((call: WireToolCall, index) => {
    chunks.push(chunk({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } }] }));
    chunks.push(chunk({ tool_calls: [{ index, function: { arguments: call.function.arguments } }] }));
  });
  const finish: Record<string, unknown> = { finish_reason: generation.finishReason as FinishReason, stop_reason: null };
  if (tokenIds) finish.token_ids = generation.ids;
  const logprobs = logprobsOf(request, generation);
  if (logprobs) finish.logprobs = logprobs;
  chunks.push(chunk({}, finish));
  if (request.stream_options?.include_usage === true) {
    chunks.push({ id, object: "chat.completion.chunk", created, model: shape.model, choices: [], usage: usageOf(shape, generation) });
  }
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

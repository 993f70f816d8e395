// Handles one POST /v1/chat/completions: validate, wait, then answer from the script or the policy.
import type { z } from "zod";
import {
  buildChunks,
  buildCompletion,
  errorBody,
  promptTokens,
  toWireToolCall,
  usageFor,
  type ChatCompletionChunk,
  type Reply,
} from "./completion.js";
import { sleep } from "./latency.js";
import { decide } from "./policy.js";
import { chatCompletionRequestSchema, type ChatCompletionRequest, type ScriptedReply } from "./schema.js";

/** What a handler wants sent: a JSON body, or a list of SSE chunks. */
export type HttpResult =
  | { status: number; json: unknown }
  | { status: 200; stream: ChatCompletionChunk[] };

/** The simulator state a chat completion reads and updates. */
export interface ChatState {
  model: string;
  maxModelLen: number;
  /** Scripted replies, consumed first in, first out. */
  script: ScriptedReply[];
  requests: ChatCompletionRequest[];
  nextLatency: () => number;
  /** Aborted when the simulator closes, to cut latency waits short. */
  signal: AbortSignal;
}

export function badRequest(message: string, param: string | null = null): HttpResult {
  return { status: 400, json: errorBody(400, message, param) };
}

export function zodProblem(error: z.ZodError): HttpResult {
  const issue = error.issues[0];
  const param = issue && issue.path.length > 0 ? issue.path.map(String).join(".") : null;
  const message = issue ? `${param ?? "body"}: ${issue.message}` : "Invalid request body";
  return badRequest(message, param);
}

export function parseJson(body: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch {
    return { ok: false };
  }
}

function scriptedReply(scripted: ScriptedReply): Reply {
  const toolCalls = (scripted.tool_calls ?? []).map((call) => toWireToolCall(call.name, call.arguments));
  return {
    content: scripted.content ?? (toolCalls.length > 0 ? null : ""),
    tool_calls: toolCalls,
    finish_reason: scripted.finish_reason ?? (toolCalls.length > 0 ? "tool_calls" : "stop"),
  };
}

function policyReply(request: ChatCompletionRequest): Reply {
  const decision = decide(request);
  const toolCalls = decision.tool_calls.map((call) => toWireToolCall(call.name, call.arguments));
  return {
    content: decision.content,
    tool_calls: toolCalls,
    finish_reason: toolCalls.length > 0 ? "tool_calls" : "stop",
  };
}

export async function handleChat(body: string, state: ChatState): Promise<HttpResult> {
  const json = parseJson(body);
  if (!json.ok) return badRequest("Invalid JSON in request body");
  const parsed = chatCompletionRequestSchema.safeParse(json.value);
  if (!parsed.success) return zodProblem(parsed.error);
  const request = parsed.data;

  // Same check and wording as vLLM, so context overflows surface locally too.
  const prompt = promptTokens(request);
  const wanted = request.max_completion_tokens ?? request.max_tokens ?? 0;
  if (prompt + wanted > state.maxModelLen) {
    return badRequest(
      `This model's maximum context length is ${state.maxModelLen} tokens. However, you requested ` +
        `${prompt + wanted} tokens (${prompt} in the messages, ${wanted} in the completion). ` +
        "Please reduce the length of the messages or completion.",
      "messages",
    );
  }

  state.requests.push(request);
  const scripted = state.script.shift();
  await sleep(scripted?.delay_ms ?? state.nextLatency(), state.signal);

  if (scripted && (scripted.error !== undefined || (scripted.status ?? 0) >= 400)) {
    const status = scripted.status ?? 500;
    return { status, json: errorBody(status, scripted.error ?? `Scripted error ${status}`) };
  }
  const reply = scripted ? scriptedReply(scripted) : policyReply(request);
  // vLLM echoes the model it serves; echoing the request's name keeps clients that check it happy.
  const model = request.model ?? state.model;
  const usage = usageFor(request, reply);
  if (request.stream) {
    const includeUsage = request.stream_options?.include_usage === true;
    return { status: 200, stream: buildChunks(model, reply, includeUsage ? usage : null) };
  }
  return { status: 200, json: buildCompletion(model, reply, usage) };
}

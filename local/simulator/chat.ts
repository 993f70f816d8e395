// Handles one POST /v1/chat/completions: validate, template and tokenize, wait, maybe fail, then generate and answer.
import type { z } from "zod";
import { buildChunks, buildCompletion, errorBody, type AnswerShape, type ReasoningField } from "./completion.js";
import type { Fault } from "./faults.js";
import { generate, type Generation, type Reply } from "./generation.js";
import { sleep } from "./latency.js";
import { decide, type PolicyDecision } from "./policy.js";
import { chatCompletionRequestSchema, type ChatCompletionRequest, type ScriptedReply } from "./schema.js";
import { structuredContent, UnsupportedSchemaError } from "./structured.js";
import { promptTokenIds } from "./template.js";
import { messageText } from "./text.js";

/** What a handler wants done: send JSON, stream SSE chunks, drop the connection, or send a body cut short. */
export type HttpResult =
  | { status: number; json: unknown }
  | { status: number; text: string }
  | { status: 200; stream: Record<string, unknown>[] }
  | { drop: true }
  | { status: 200; malformed: string };

/** One generation as the simulator produced it: what a test compares the proxy's token ids with. */
export interface GenerationRecord {
  prompt_token_ids: number[];
  generation_token_ids: number[];
  generation_log_probs: number[];
  text: string;
  finish_reason: string;
}

/** The simulator state a chat completion reads and updates. */
export interface ChatState {
  model: string;
  maxModelLen: number;
  /** Scripted replies, consumed first in, first out. */
  script: ScriptedReply[];
  requests: ChatCompletionRequest[];
  generations: GenerationRecord[];
  nextLatency: () => number;
  nextFault: () => Fault;
  /** Extra delay of a latency spike (0 for most requests). */
  nextSpike: () => number;
  /** Faults injected so far, by kind (spikes included): what a chaos run reports. */
  injected: Record<"error" | "drop" | "malformed" | "hang" | "spike", number>;
  /** Think before answering unless told not to (a reasoning model); otherwise only when asked. */
  reasoning: boolean;
  reasoningField: ReasoningField;
  supportsReturnTokenIds: boolean;
  /** Aborted when the simulator closes, to cut latency waits short. */
  signal: AbortSignal;
}

/** How many requests and generations the simulator remembers: enough for any test, bounded for a long `npm run dev`. */
export const HISTORY_LIMIT = 10_000;

function remember<T>(list: T[], item: T): void {
  list.push(item);
  if (list.length > HISTORY_LIMIT) list.splice(0, list.length - HISTORY_LIMIT);
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
    // The caller answers 400 "Invalid JSON", as vLLM does; the parser's message would add nothing for the client.
    return { ok: false };
  }
}

function argumentsText(args: Record<string, unknown> | string): string {
  return typeof args === "string" ? args : JSON.stringify(args);
}

/** Whether this request has the model think first: asked for (reasoning_effort, enable_thinking) or on by default. */
function thinks(request: ChatCompletionRequest, byDefault: boolean): boolean {
  const enable = request.chat_template_kwargs?.["enable_thinking"];
  const effort = request.reasoning_effort;
  if (enable === false || effort === "none") return false;
  return byDefault || enable === true || (effort != null && effort !== "");
}

function thought(decision: PolicyDecision): string {
  if (decision.tool_calls.length === 0) return "I have what I need to answer.";
  return `I should call ${decision.tool_calls.map((call) => call.name).join(", ")} to make progress.`;
}

/** A `response_format`'s JSON, as guided decoding would constrain the answer; null when the text is free. Throws UnsupportedSchemaError. */
function structuredAnswer(request: ChatCompletionRequest): string | null {
  return structuredContent(request.response_format, request.messages.map(messageText).join("\n"));
}

function reply(request: ChatCompletionRequest, scripted: ScriptedReply | undefined, reasoning: boolean, structured: string | null): Reply {
  if (scripted) {
    const calls = (scripted.tool_calls ?? []).map((call) => ({ name: call.name, arguments: argumentsText(call.arguments) }));
    return {
      content: scripted.content ?? (calls.length ? null : ""),
      reasoning: scripted.reasoning ?? null,
      tool_calls: calls,
      ...(scripted.finish_reason ? { finish_reason: scripted.finish_reason } : {}),
    };
  }
  // Guided decoding leaves the model only the schema's JSON to write: no tool calls, no prose.
  const decision: PolicyDecision = structured === null ? decide(request) : { content: structured, tool_calls: [] };
  return {
    content: decision.content,
    reasoning: thinks(request, reasoning) ? thought(decision) : null,
    tool_calls: decision.tool_calls.map((call) => ({ name: call.name, arguments: argumentsText(call.arguments) })),
  };
}

/** vLLM's context checks, worded as vLLM words them (NeMo Gym looks for "context length"). */
function contextProblem(prompt: number, wanted: number, maxModelLen: number): HttpResult | null {
  if (prompt >= maxModelLen) {
    return badRequest(
      `This model's maximum context length is ${maxModelLen} tokens. However, your request has ${prompt} input tokens. ` +
        "Please reduce the length of the input messages.",
      "messages",
    );
  }
  if (prompt + wanted > maxModelLen) {
    return badRequest(
      `This model's maximum context length is ${maxModelLen} tokens. However, you requested ` +
        `${prompt + wanted} tokens (${prompt} in the messages, ${wanted} in the completion). ` +
        "Please reduce the length of the messages or completion.",
      "messages",
    );
  }
  return null;
}

function faultResult(fault: Fault, scripted: ScriptedReply | undefined): HttpResult | null {
  if (scripted?.drop) return { drop: true };
  if (scripted?.malformed) return { status: 200, malformed: '{"id":"chatcmpl-cut","object":"chat.completion","choices":[{"index":0,"mess' };
  if (scripted && (scripted.error !== undefined || (scripted.status ?? 0) >= 400)) {
    const status = scripted.status ?? 500;
    return { status, json: errorBody(status, scripted.error ?? `Scripted error ${status}`) };
  }
  if (scripted || !fault) return null;
  if (fault.kind === "drop" || fault.kind === "hang") return { drop: true };
  if (fault.kind === "malformed") return { status: 200, malformed: '{"id":"chatcmpl-cut","object":"chat.com' };
  return { status: fault.status, json: errorBody(fault.status, `Injected fault: HTTP ${fault.status}`) };
}

function record(promptIds: number[], generation: Generation): GenerationRecord {
  return {
    prompt_token_ids: promptIds,
    generation_token_ids: generation.ids,
    generation_log_probs: generation.logprobs,
    text: generation.text,
    finish_reason: generation.finishReason,
  };
}

export async function handleChat(body: string, state: ChatState): Promise<HttpResult> {
  const json = parseJson(body);
  if (!json.ok) return badRequest("Invalid JSON in request body");
  const parsed = chatCompletionRequestSchema.safeParse(json.value);
  if (!parsed.success) return zodProblem(parsed.error);
  const request = parsed.data;
  let structured: string | null;
  try {
    structured = structuredAnswer(request);
  } catch (error) {
    if (error instanceof UnsupportedSchemaError) return badRequest(error.message, "response_format");
    throw error;
  }

  const promptIds = promptTokenIds(request);
  const asked = request.max_completion_tokens ?? request.max_tokens ?? null;
  const problem = contextProblem(promptIds.length, asked ?? 0, state.maxModelLen);
  if (problem) return problem;

  remember(state.requests, request);
  const scripted = state.script.shift();
  const spike = scripted ? 0 : state.nextSpike();
  if (spike > 0) state.injected.spike++;
  await sleep(scripted?.delay_ms ?? state.nextLatency() + spike, state.signal);
  const fault = scripted ? null : state.nextFault();
  if (fault) state.injected[fault.kind]++;
  // A hung request is held (the client's timeout is what ends it for the client), then its connection dropped.
  if (fault?.kind === "hang") await sleep(fault.ms, state.signal);
  const failed = faultResult(fault, scripted);
  if (failed) return failed;

  // Without max_tokens vLLM lets the model run to the end of the context window.
  const generation = generate(reply(request, scripted, state.reasoning, structured), asked ?? state.maxModelLen - promptIds.length);
  remember(state.generations, record(promptIds, generation));
  const shape: AnswerShape = {
    // vLLM echoes the model it serves; echoing the request's name keeps clients that check it happy.
    model: request.model ?? state.model,
    promptIds,
    reasoningField: state.reasoningField,
    supportsReturnTokenIds: state.supportsReturnTokenIds,
  };
  if (request.stream) return { status: 200, stream: buildChunks(request, shape, generation) };
  return { status: 200, json: buildCompletion(request, shape, generation) };
}

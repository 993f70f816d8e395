// One model turn, as NeMo Gym's vllm_model makes it: overrides and token flags on the way up, reasoning and token ids back.
import type { Logger } from "../../http/log.js";
import { EdgegymError } from "../../protocol/index.js";
import type { JsonObject, ProxyConfig } from "./config.js";
import { splitThink } from "./reasoning.js";
import { callUpstream, MalformedBody } from "./retry.js";
import { logprobTokens, readBundle, responseTokenIds, sameIds, TokenInfoError, type TokenBundle } from "./tokens.js";
import { hexId, isRecord, UpstreamCompletion, type ChatBody, type UpstreamChoice, type UpstreamUsage } from "./wire.js";

/** A tool call as OpenAI's chat format has it, id and type always set. */
export interface FunctionCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** A model turn, normalised: what both the Responses and the Chat Completions routes answer from. */
export interface ModelTurn {
  id: string;
  created: number;
  model: string;
  /** The visible text, reasoning removed. */
  content: string | null;
  /** Reasoning texts: vLLM's reasoning field and any `<think>` spans of the content, in that order. */
  reasoning: string[];
  toolCalls: FunctionCall[];
  finishReason: string;
  usage: UpstreamUsage | null;
  tokens: TokenBundle | null;
  /** The upstream's own logprobs when the caller asked for them and the proxy did not consume them. */
  logprobs: unknown;
  upstream: string;
  attempts: number;
}

export interface CallContext {
  sessionId?: string;
  /** An HTTP caller's signal (the client may go away). */
  signal?: AbortSignal;
  /** Where failed attempts are logged. */
  log?: Logger;
  /** An RPC caller's deadline, epoch ms. */
  deadlineAt?: number;
}

function metadataObject(metadata: unknown, key: string): JsonObject {
  const value = isRecord(metadata) ? metadata[key] : undefined;
  if (value === undefined || value === null || value === "") return {};
  if (isRecord(value)) return value;
  if (typeof value === "string") {
    try {
      const parsed: unknown = JSON.parse(value);
      if (isRecord(parsed)) return parsed;
    } catch {
      // Not JSON: refused below as not a JSON object, like any other value that is not one.
    }
  }
  throw new EdgegymError(400, "invalid_request", `metadata.${key} must be a JSON object encoded as a string`);
}

/**
 * The body vLLM gets, in NeMo Gym's precedence: the caller's fields over `extra_body` (the proxy's, then the row's
 * `metadata.extra_body`); chat_template_kwargs merged (proxy, caller, row); token flags forced; sampling overrides last.
 */
export function prepareChatBody(config: ProxyConfig, request: ChatBody, metadata: unknown): ChatBody {
  const { metadata: _metadata, stream: _stream, stream_options: _options, ...caller } = request;
  const messages = caller.messages.map((message) => {
    let next = message;
    if (config.developerAsSystem && message.role === "developer") next = { ...next, role: "system" };
    // History written by a model without a reasoning parser on our side may hold <think> spans: send them as reasoning.
    if (config.reasoningParser && message.role === "assistant" && typeof message.content === "string" && message.content.includes("<think>")) {
      const { reasoning, rest } = splitThink(message.content);
      next = { ...next, content: rest || null, reasoning_content: reasoning.join("\n"), reasoning: reasoning.join("\n") };
    }
    return next;
  });
  const kwargs = {
    ...config.chatTemplateKwargs,
    ...(isRecord(caller.chat_template_kwargs) ? caller.chat_template_kwargs : {}),
    ...metadataObject(metadata, "chat_template_kwargs"),
  };
  const body: ChatBody = { ...config.extraBody, ...metadataObject(metadata, "extra_body"), ...caller, messages, model: config.model };
  if (Object.keys(kwargs).length) body.chat_template_kwargs = kwargs;
  // vLLM reads a null top_logprobs as "no logprobs"; a missing one as its default.
  if (body.top_logprobs === null) delete body.top_logprobs;
  if (config.returnTokenIds) {
    if (body.n != null && body.n !== 1) throw new EdgegymError(400, "invalid_request", "n must be 1 when RETURN_TOKEN_ID_INFORMATION is on");
    // top_logprobs pinned to 0: capture needs the chosen token's id and logprob only, whatever the caller sent.
    Object.assign(body, { logprobs: true, top_logprobs: 0, return_tokens_as_token_ids: true, return_token_ids: true });
  }
  return config.samplingOverrides ? Object.assign(body, config.samplingOverrides) : body;
}

function acceptCompletion(json: unknown): UpstreamCompletion {
  const parsed = UpstreamCompletion.safeParse(json);
  if (!parsed.success) throw new MalformedBody(`not a chat completion: ${parsed.error.issues[0]?.message ?? "invalid"}`);
  return parsed.data;
}

function acceptTokens(json: unknown): number[] {
  if (!isRecord(json) || !Array.isArray(json.tokens)) throw new MalformedBody("a /tokenize answer without tokens");
  return json.tokens as number[];
}

const TOKENIZE_FIELDS = ["model", "messages", "tools", "chat_template_kwargs", "mm_processor_kwargs", "required_prefix_token_ids"];

/**
 * Token ids for training, in NeMo Gym's order of sources: a complete bundle on the message; else vLLM's
 * `prompt_token_ids` + `token_ids` checked against the logprob tokens; else the logprob tokens and `/tokenize` for the
 * prompt. Sources that disagree are an error, never a guess.
 */
async function tokenBundle(
  config: ProxyConfig,
  body: ChatBody,
  completion: UpstreamCompletion,
  choice: UpstreamChoice,
  upstream: string,
  context: CallContext,
): Promise<TokenBundle> {
  const onMessage = readBundle(choice.message, "choices[0].message", 502);
  const fromResponse = responseTokenIds(completion, choice);
  if (onMessage) {
    if (fromResponse && (!sameIds(onMessage.prompt_token_ids, fromResponse.prompt) || !sameIds(onMessage.generation_token_ids, fromResponse.generation))) {
      throw new TokenInfoError(502, "the token ids on the model's message disagree with its prompt_token_ids/token_ids");
    }
    return onMessage;
  }
  const fromLogprobs = logprobTokens(choice);
  if (fromResponse) {
    if (!sameIds(fromResponse.generation, fromLogprobs.ids)) {
      throw new TokenInfoError(502, "the model's choices[0].token_ids disagree with the token ids of its logprobs");
    }
    return { prompt_token_ids: fromResponse.prompt, generation_token_ids: fromResponse.generation, generation_log_probs: fromLogprobs.logprobs };
  }
  const tokenizeBody = Object.fromEntries(TOKENIZE_FIELDS.filter((key) => body[key] !== undefined).map((key) => [key, body[key]]));
  const tokenized = await callUpstream(config, {
    path: "/tokenize",
    root: true,
    method: "POST",
    body: JSON.stringify(tokenizeBody),
    pinned: upstream,
    ...(context.signal ? { signal: context.signal } : {}),
    ...(context.deadlineAt !== undefined ? { deadlineAt: context.deadlineAt } : {}),
    accept: acceptTokens,
  });
  if (tokenized.kind !== "ok") throw new TokenInfoError(502, `the model's /tokenize refused the prompt: ${tokenized.message}`);
  return { prompt_token_ids: tokenized.value, generation_token_ids: fromLogprobs.ids, generation_log_probs: fromLogprobs.logprobs };
}

/** What NeMo Gym answers when the prompt no longer fits: an empty turn that ends the rollout as `incomplete`. */
function emptyTurn(config: ProxyConfig, upstream: string, attempts: number): ModelTurn {
  return {
    id: hexId("chatcmpl-"),
    created: Math.floor(Date.now() / 1000),
    model: config.model,
    content: null,
    reasoning: [],
    toolCalls: [],
    finishReason: "length",
    usage: null,
    tokens: null,
    logprobs: null,
    upstream,
    attempts,
  };
}

/** Sends a prepared body to the pool and reads the turn back. */
export async function callModel(config: ProxyConfig, body: ChatBody, context: CallContext): Promise<ModelTurn> {
  const result = await callUpstream(config, {
    path: "/chat/completions",
    method: "POST",
    body: JSON.stringify({ ...body, stream: false }),
    ...context,
    accept: acceptCompletion,
    contextLengthIsAnswer: true,
  });
  if (result.kind === "context_length") return emptyTurn(config, result.upstream, result.attempts);

  const completion = result.value;
  const choice = completion.choices[0]!;
  const message = choice.message;
  const upstreamReasoning = message.reasoning_content || message.reasoning || "";
  if (upstreamReasoning && !config.reasoningParser) {
    throw new EdgegymError(
      502,
      "upstream_reasoning",
      "the model returned a reasoning field but USES_REASONING_PARSER is false: set it to true, or run vLLM without --reasoning-parser",
    );
  }
  let content = message.content ?? "";
  const reasoning = upstreamReasoning ? [upstreamReasoning] : [];
  if (config.reasoningParser) {
    const split = splitThink(content);
    content = split.rest;
    reasoning.push(...split.reasoning);
  }
  const tokens = config.returnTokenIds ? await tokenBundle(config, body, completion, choice, result.upstream, context) : null;
  return {
    id: completion.id ?? hexId("chatcmpl-"),
    created: completion.created ?? Math.floor(Date.now() / 1000),
    model: config.model,
    content: content || null,
    reasoning,
    toolCalls: (message.tool_calls ?? [])
      .filter((call) => !call.type || call.type === "function")
      .map((call) => ({
        id: call.id || hexId("chatcmpl-tool-"),
        type: "function",
        function: { name: call.function.name, arguments: call.function.arguments ?? "" },
      })),
    finishReason: choice.finish_reason ?? "stop",
    usage: completion.usage ?? null,
    tokens,
    logprobs: tokens ? null : (choice.logprobs ?? null),
    upstream: result.upstream,
    attempts: result.attempts,
  };
}

// A model turn as the caller sees it: a Responses `Response` (NeMo Gym's converter, field for field) or a chat completion.
import type { Item, ResponsesCreateParams, Response as ResponsesResponse } from "../../protocol/index.js";
import type { ModelTurn } from "./model-call.js";
import { wrapThink } from "./reasoning.js";
import { withBundle } from "./tokens.js";
import { hexId } from "./wire.js";

/** Output items: reasoning, then the text (an empty one if nothing else came), then each tool call; token ids on the last. */
export function outputItems(turn: ModelTurn): Item[] {
  const output: Item[] = [];
  if (turn.reasoning.length) {
    output.push({
      id: hexId("rs_"),
      type: "reasoning",
      summary: turn.reasoning.map((text) => ({ type: "summary_text", text })),
      encrypted_content: null,
      // NeMo Gym's reasoning item serializes its optional reasoning content as null; its records carry the key.
      content: null,
      status: "completed",
    });
  }
  if (turn.content || (output.length === 0 && turn.toolCalls.length === 0)) {
    output.push({
      id: hexId("msg_"),
      type: "message",
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: turn.content ?? "", annotations: [] }],
    });
  }
  for (const call of turn.toolCalls) {
    output.push({
      // NeMo Gym reuses the call id as the item id.
      id: call.id,
      type: "function_call",
      call_id: call.id,
      name: call.function.name,
      arguments: call.function.arguments,
      status: "completed",
    });
  }
  if (turn.tokens) withBundle(output[output.length - 1]!, turn.tokens);
  return output;
}

function incomplete(finishReason: string): { reason: string } | null {
  if (finishReason === "length") return { reason: "max_output_tokens" };
  if (finishReason === "content_filter") return { reason: "content_filter" };
  return null;
}

/** The Responses `Response` for a turn, echoing the request's settings as NeMo Gym's converter does. */
export function toResponse(turn: ModelTurn, params: ResponsesCreateParams, id = hexId("resp_")): ResponsesResponse {
  const details = incomplete(turn.finishReason);
  const usage = turn.usage;
  const echo = (key: string): unknown => params[key] ?? null;
  return {
    id,
    object: "response",
    created_at: turn.created,
    model: turn.model,
    output: outputItems(turn),
    status: details ? "incomplete" : "completed",
    incomplete_details: details,
    error: null,
    instructions: params.instructions ?? null,
    metadata: params.metadata ?? null,
    parallel_tool_calls: params.parallel_tool_calls ?? true,
    temperature: params.temperature ?? null,
    top_p: params.top_p ?? null,
    tool_choice: params.tool_choice ?? "auto",
    tools: params.tools ?? [],
    max_output_tokens: params.max_output_tokens ?? null,
    max_tool_calls: params.max_tool_calls ?? null,
    reasoning: params.reasoning ?? null,
    background: echo("background"),
    previous_response_id: echo("previous_response_id"),
    prompt: echo("prompt"),
    service_tier: echo("service_tier"),
    text: echo("text"),
    top_logprobs: echo("top_logprobs"),
    truncation: echo("truncation"),
    user: echo("user"),
    // Fields NeMo Gym's recorded responses carry, null when the request sets none (its rollouts write them so).
    conversation: echo("conversation"),
    prompt_cache_key: echo("prompt_cache_key"),
    prompt_cache_retention: echo("prompt_cache_retention"),
    safety_identifier: echo("safety_identifier"),
    store: echo("store"),
    moderation: null,
    completed_at: details ? null : Math.floor(turn.created),
    usage: usage
      ? {
          input_tokens: usage.prompt_tokens,
          input_tokens_details: { cached_tokens: usage.prompt_tokens_details?.cached_tokens ?? 0 },
          output_tokens: usage.completion_tokens,
          output_tokens_details: { reasoning_tokens: usage.completion_tokens_details?.reasoning_tokens ?? 0 },
          // A provider's total may count differently from prompt + completion: carry it over as given.
          total_tokens: usage.total_tokens,
        }
      : null,
  };
}

/**
 * The chat completion NeMo Gym's vllm_model answers: reasoning folded into the content as `<think>…</think>`, and the
 * token ids on the message (vLLM's own transport fields consumed).
 */
export function toChatCompletion(turn: ModelTurn): Record<string, unknown> {
  const visible = wrapThink(turn.reasoning) + (turn.content ?? "");
  const message: Record<string, unknown> = { role: "assistant", content: visible || null };
  if (turn.toolCalls.length) message.tool_calls = turn.toolCalls;
  if (turn.tokens) withBundle(message, turn.tokens);
  return {
    id: turn.id,
    object: "chat.completion",
    created: turn.created,
    model: turn.model,
    choices: [{ index: 0, message, finish_reason: turn.finishReason, logprobs: turn.logprobs ?? null }],
    ...(turn.usage ? { usage: turn.usage } : {}),
  };
}

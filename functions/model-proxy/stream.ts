// `stream: true`: a finished answer as the events of OpenAI's streaming formats (Responses events, chat chunks); hono/streaming frames them.
//
// The proxy calls vLLM without streaming, so retries, token ids and reasoning parsing apply to streamed calls too;
// the events are then written in the order and shape OpenAI's clients expect.
import type { Item, Response as ResponsesResponse } from "../../protocol/index.js";

type Event = Record<string, unknown> & { type: string };

/** The events OpenAI's Responses API streams for one item, between its `added` and `done`. */
function itemEvents(item: Item, index: number, emit: (event: Event) => void): void {
  const base = { output_index: index, item_id: item.id ?? "" };
  switch (item.type) {
    case "message": {
      const parts = typeof item.content === "string" ? [{ type: "output_text", text: item.content, annotations: [] }] : item.content;
      parts.forEach((part, content_index) => {
        const text = part.text ?? "";
        emit({ type: "response.content_part.added", ...base, content_index, part: { ...part, text: "" } });
        if (text) emit({ type: "response.output_text.delta", ...base, content_index, delta: text, logprobs: [] });
        emit({ type: "response.output_text.done", ...base, content_index, text, logprobs: [] });
        emit({ type: "response.content_part.done", ...base, content_index, part });
      });
      break;
    }
    case "function_call":
      if (item.arguments) emit({ type: "response.function_call_arguments.delta", ...base, delta: item.arguments });
      emit({ type: "response.function_call_arguments.done", ...base, name: item.name, arguments: item.arguments });
      break;
    case "reasoning":
      item.summary.forEach((part, summary_index) => {
        emit({ type: "response.reasoning_summary_part.added", ...base, summary_index, part: { type: "summary_text", text: "" } });
        emit({ type: "response.reasoning_summary_text.delta", ...base, summary_index, delta: part.text });
        emit({ type: "response.reasoning_summary_text.done", ...base, summary_index, text: part.text });
        emit({ type: "response.reasoning_summary_part.done", ...base, summary_index, part: { type: "summary_text", text: part.text } });
      });
      break;
    default:
      break;
  }
}

/** An item as first announced: in progress, with its content still to come. */
function opening(item: Item): Item {
  switch (item.type) {
    case "message":
      return { ...item, status: "in_progress", content: [] };
    case "function_call":
      return { ...item, status: "in_progress", arguments: "" };
    case "reasoning":
      return { ...item, summary: [] };
    default:
      return item;
  }
}

/** The Responses API's event sequence for a finished response. */
export function responseEvents(response: ResponsesResponse): Event[] {
  const events: Event[] = [];
  const emit = (event: Event): void => {
    events.push({ ...event, sequence_number: events.length });
  };
  const pending = { ...response, status: "in_progress", output: [], incomplete_details: null, usage: null };
  emit({ type: "response.created", response: pending });
  emit({ type: "response.in_progress", response: pending });
  response.output.forEach((item, index) => {
    emit({ type: "response.output_item.added", output_index: index, item: opening(item) });
    itemEvents(item, index, emit);
    emit({ type: "response.output_item.done", output_index: index, item });
  });
  emit({ type: response.status === "incomplete" ? "response.incomplete" : "response.completed", response });
  return events;
}

/**
 * Chat chunks as vLLM streams them: the role (and `prompt_token_ids`), the content, each tool call's header then its
 * arguments, the finish reason (with the generation's `token_ids` and logprobs), usage if asked, then `[DONE]`.
 */
export function chatChunks(completion: Record<string, unknown>, includeUsage: boolean): Record<string, unknown>[] {
  const choice = (completion.choices as Record<string, unknown>[])[0]!;
  const message = choice.message as Record<string, unknown>;
  const { id, created, model } = completion;
  const chunk = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}, top: Record<string, unknown> = {}): Record<string, unknown> => ({
    id,
    object: "chat.completion.chunk",
    created,
    model,
    ...top,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: null, ...extra }],
  });
  const tokens = Array.isArray(message.prompt_token_ids);
  const chunks = [chunk({ role: "assistant", content: "" }, {}, tokens ? { prompt_token_ids: message.prompt_token_ids } : {})];
  if (typeof message.content === "string" && message.content) chunks.push(chunk({ content: message.content }));
  const calls = Array.isArray(message.tool_calls) ? (message.tool_calls as Record<string, unknown>[]) : [];
  calls.forEach((call, index) => {
    const fn = call.function as { name: string; arguments?: string | null };
    chunks.push(chunk({ tool_calls: [{ index, id: call.id, type: "function", function: { name: fn.name, arguments: "" } }] }));
    chunks.push(chunk({ tool_calls: [{ index, function: { arguments: fn.arguments ?? "" } }] }));
  });
  const finish: Record<string, unknown> = { finish_reason: choice.finish_reason };
  if (tokens) {
    finish.token_ids = message.generation_token_ids;
    finish.logprobs = {
      content: (message.generation_token_ids as number[]).map((token, i) => ({
        token: `token_id:${token}`,
        logprob: (message.generation_log_probs as number[])[i],
        top_logprobs: [],
      })),
    };
  } else if (choice.logprobs) {
    finish.logprobs = choice.logprobs;
  }
  chunks.push(chunk({}, finish));
  if (includeUsage && completion.usage) chunks.push({ id, object: "chat.completion.chunk", created, model, choices: [], usage: completion.usage });
  return chunks;
}

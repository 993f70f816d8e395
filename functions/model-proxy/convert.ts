// Responses API ⇄ Chat Completions: what the policy model (vLLM) speaks on one side, NeMo Gym on the other.
import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
  ChatCompletionTool,
} from "openai/resources/chat/completions";
import {
  EdgegymError,
  contentText,
  isFunctionTool,
  type Item,
  type ResponsesCreateParams,
  type Response as ResponsesResponse,
} from "../../protocol/index.js";

function unsupported(message: string): never {
  throw new EdgegymError(400, "unsupported_for_chat_completions", message);
}

function toolCallsOf(message: ChatCompletionMessageParam): ChatCompletionMessageToolCall[] | undefined {
  return message.role === "assistant" ? (message.tool_calls as ChatCompletionMessageToolCall[] | undefined) : undefined;
}

/** Conversation items → chat messages; consecutive assistant-side items fold into one assistant message. */
export function toChatMessages(input: ResponsesCreateParams["input"], instructions?: string | null): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [];
  if (instructions) messages.push({ role: "system", content: instructions });
  const items: Item[] = typeof input === "string" ? [{ type: "message", role: "user", content: input }] : input;

  for (const [index, item] of items.entries()) {
    const previous = messages[messages.length - 1];
    switch (item.type) {
      case "message": {
        const text = contentText(item.content);
        if (item.role === "assistant") {
          if (previous?.role === "assistant" && !previous.content) previous.content = text;
          else messages.push({ role: "assistant", content: text });
        } else {
          // vLLM's chat templates know `system`, not `developer`.
          messages.push({ role: item.role === "developer" ? "system" : item.role, content: text });
        }
        break;
      }
      case "function_call": {
        const call: ChatCompletionMessageToolCall = {
          id: item.call_id,
          type: "function",
          function: { name: item.name, arguments: item.arguments },
        };
        const calls = previous ? toolCallsOf(previous) : undefined;
        if (previous?.role === "assistant" && calls) calls.push(call);
        else if (previous?.role === "assistant") previous.tool_calls = [call];
        else messages.push({ role: "assistant", content: null, tool_calls: [call] });
        break;
      }
      case "function_call_output":
        messages.push({ role: "tool", tool_call_id: item.call_id, content: contentText(item.output) });
        break;
      case "reasoning":
        // The chat side has no place for earlier reasoning; the model does not need it back.
        break;
      default:
        unsupported(`input[${index}] has type "${(item as { type: string }).type}", which Chat Completions cannot carry`);
    }
  }
  return messages;
}

export function toChatTools(tools: ResponsesCreateParams["tools"]): ChatCompletionTool[] {
  return (tools ?? []).map((tool, index) => {
    if (!isFunctionTool(tool)) unsupported(`tools[${index}] has type "${tool.type}"; only function tools reach the model`);
    return {
      type: "function",
      function: {
        name: tool.name,
        ...(tool.description ? { description: tool.description } : {}),
        parameters: tool.parameters ?? { type: "object", properties: {} },
        ...(tool.strict != null ? { strict: tool.strict } : {}),
      },
    };
  });
}

function toChatToolChoice(choice: unknown): ChatCompletionCreateParamsNonStreaming["tool_choice"] {
  if (choice === "auto" || choice === "none" || choice === "required") return choice;
  if (choice && typeof choice === "object" && "name" in choice && typeof choice.name === "string") {
    return { type: "function", function: { name: choice.name } };
  }
  return undefined;
}

/** A Responses create request as the Chat Completions request vLLM takes. */
export function toChatRequest(params: ResponsesCreateParams, model: string): ChatCompletionCreateParamsNonStreaming {
  const tools = toChatTools(params.tools);
  const request: ChatCompletionCreateParamsNonStreaming = {
    model,
    messages: toChatMessages(params.input, params.instructions),
  };
  if (tools.length) {
    request.tools = tools;
    const choice = toChatToolChoice(params.tool_choice);
    if (choice) request.tool_choice = choice;
    if (params.parallel_tool_calls != null) request.parallel_tool_calls = params.parallel_tool_calls;
  }
  if (params.temperature != null) request.temperature = params.temperature;
  if (params.top_p != null) request.top_p = params.top_p;
  if (params.max_output_tokens != null) request.max_tokens = params.max_output_tokens;
  return request;
}

function randomId(prefix: string): string {
  return `${prefix}_${crypto.randomUUID().replace(/-/g, "")}`;
}

/** A chat completion as the Responses `Response` NeMo Gym expects back. */
export function fromChatCompletion(completion: ChatCompletion, params: ResponsesCreateParams): ResponsesResponse {
  const choice = completion.choices[0];
  if (!choice) throw new EdgegymError(502, "upstream_invalid", "the model returned no choices");
  const output: Item[] = [];
  const text = choice.message.content;
  if (text) {
    output.push({
      type: "message",
      id: randomId("msg"),
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text, annotations: [] }],
    });
  }
  for (const call of choice.message.tool_calls ?? []) {
    if (call.type !== "function") continue;
    output.push({
      type: "function_call",
      id: randomId("fc"),
      call_id: call.id,
      name: call.function.name,
      arguments: call.function.arguments,
      status: "completed",
    });
  }
  const truncated = choice.finish_reason === "length" || choice.finish_reason === "content_filter";
  const usage = completion.usage;
  return {
    id: randomId("resp"),
    object: "response",
    created_at: completion.created,
    model: completion.model,
    output,
    status: truncated ? "incomplete" : "completed",
    incomplete_details: truncated
      ? { reason: choice.finish_reason === "length" ? "max_output_tokens" : "content_filter" }
      : null,
    error: null,
    instructions: params.instructions ?? null,
    metadata: params.metadata ?? {},
    parallel_tool_calls: params.parallel_tool_calls ?? true,
    temperature: params.temperature ?? null,
    top_p: params.top_p ?? null,
    tool_choice: params.tool_choice ?? "auto",
    tools: params.tools ?? [],
    usage: usage
      ? {
          input_tokens: usage.prompt_tokens,
          output_tokens: usage.completion_tokens,
          total_tokens: usage.total_tokens,
          input_tokens_details: { cached_tokens: usage.prompt_tokens_details?.cached_tokens ?? 0 },
          output_tokens_details: { reasoning_tokens: usage.completion_tokens_details?.reasoning_tokens ?? 0 },
        }
      : null,
  };
}

// Responses create params → the Chat Completions request vLLM takes, rule for rule as NeMo Gym's converter.
import { EdgegymError, isFunctionTool, type ContentPart, type Item, type MessageItem, type ResponsesCreateParams } from "../../protocol/index.js";
import { splitThink, wrapThink } from "./reasoning.js";
import { readBundle, withBundle, type TokenBundle } from "./tokens.js";
import { isRecord, type ChatBody, type ChatMessage } from "./wire.js";

export interface ConvertOptions {
  /** The served model name (the proxy's, never the caller's). */
  model: string;
  developerAsSystem: boolean;
  /** vLLM runs a reasoning parser: earlier reasoning goes back as `reasoning`, not as `<think>` text. */
  reasoningParser: boolean;
  /** Carry earlier turns' token ids on their assistant messages (the on-policy fix). */
  returnTokenIds: boolean;
}

function unsupported(message: string): never {
  throw new EdgegymError(400, "unsupported_for_chat_completions", message);
}

/** The item kinds a chat model can take; anything else is refused by name before parsing. */
export const CHAT_ITEM_TYPES: ReadonlySet<string> = new Set(["message", "function_call", "function_call_output", "reasoning"]);

/** A clear 400 for an input item with no Chat Completions equivalent (hosted tool calls, compaction, …). */
export function rejectUnsupportedItems(body: unknown): void {
  if (!isRecord(body) || !Array.isArray(body.input)) return;
  body.input.forEach((item: unknown, index) => {
    if (isRecord(item) && typeof item.type === "string" && !CHAT_ITEM_TYPES.has(item.type)) {
      unsupported(
        `input[${index}] has type "${item.type}", which has no Chat Completions equivalent; ` +
          "only message, function_call, function_call_output and reasoning items reach a vLLM chat model",
      );
    }
  });
}

function partText(part: ContentPart): string {
  return typeof part.text === "string" ? part.text : "";
}

/** User, system and developer content: parts become chat parts (text, image_url, video_url), as vLLM takes them. */
function chatContent(content: MessageItem["content"], where: string): string | Record<string, unknown>[] {
  if (typeof content === "string") return content;
  return content.map((part, index) => {
    switch (part.type) {
      case "input_text":
      case "output_text":
      case "text":
        return { type: "text", text: partText(part) };
      case "input_image": {
        const image = part.image_url;
        const url = isRecord(image) ? image.url : image;
        if (typeof url !== "string" || !url) unsupported(`${where}.content[${index}] is an input_image without an image_url`);
        return { type: "image_url", image_url: { url, detail: typeof part.detail === "string" ? part.detail : "auto" } };
      }
      case "input_video": {
        const video = part.video_url ?? part.video;
        const url = isRecord(video) ? video.url : video;
        if (typeof url !== "string" || !url) unsupported(`${where}.content[${index}] is an input_video without a URL`);
        return { type: "video_url", video_url: { url } };
      }
      default:
        return unsupported(`${where}.content[${index}] has type "${part.type}", which Chat Completions cannot carry`);
    }
  });
}

/** The assistant side of one turn, gathered until something else is said (NeMo Gym's converter state). */
class AssistantBuffer {
  private content = "";
  private reasoning: string[] = [];
  private toolCalls: Record<string, unknown>[] = [];
  private tokens: TokenBundle | null = null;
  private open = false;

  constructor(private readonly options: ConvertOptions) {}

  text(text: string): void {
    this.open = true;
    this.content += text;
  }
  think(texts: string[]): void {
    this.open = true;
    this.reasoning.push(...texts);
  }
  call(call: Record<string, unknown>): void {
    this.open = true;
    this.toolCalls.push(call);
  }
  token(bundle: TokenBundle | null): void {
    if (bundle) this.tokens = bundle;
  }

  flush(into: ChatMessage[]): void {
    if (this.open) into.push(this.message());
    this.content = "";
    this.reasoning = [];
    this.toolCalls = [];
    this.tokens = null;
    this.open = false;
  }

  private message(): ChatMessage {
    let content = this.content;
    let reasoning = this.reasoning;
    if (this.options.reasoningParser) {
      const split = splitThink(content);
      content = split.rest;
      reasoning = [...reasoning, ...split.reasoning];
    } else {
      content = wrapThink(reasoning) + content;
      reasoning = [];
    }
    const message: ChatMessage = { role: "assistant", content: content || null };
    // OpenAI rejects `tool_calls: []`: leave it out instead.
    if (this.toolCalls.length) message.tool_calls = this.toolCalls;
    if (reasoning.length) {
      // vLLM renamed `reasoning_content` to `reasoning` in 0.16; send both, as NeMo Gym does.
      message.reasoning_content = reasoning.join("\n");
      message.reasoning = message.reasoning_content;
    }
    return this.tokens ? withBundle(message, this.tokens) : message;
  }
}

/** Conversation items → chat messages; consecutive assistant-side items fold into one assistant message. */
export function toChatMessages(input: ResponsesCreateParams["input"], instructions: string | null | undefined, options: ConvertOptions): ChatMessage[] {
  const messages: ChatMessage[] = [];
  const items: Item[] = typeof input === "string" ? [{ type: "message", role: "user", content: input }] : input;
  const assistant = new AssistantBuffer(options);

  items.forEach((item, index) => {
    const where = `input[${index}]`;
    switch (item.type) {
      case "message":
        if (item.role === "assistant") {
          const content = item.content;
          assistant.text(typeof content === "string" ? content : content.map(partText).join(""));
        } else {
          assistant.flush(messages);
          const role = item.role === "developer" && options.developerAsSystem ? "system" : item.role;
          messages.push({ role, content: chatContent(item.content, where) });
        }
        break;
      case "reasoning":
        assistant.think(item.summary.map((part) => part.text));
        break;
      case "function_call":
        assistant.call({ id: item.call_id, type: "function", function: { name: item.name, arguments: item.arguments } });
        break;
      case "function_call_output": {
        assistant.flush(messages);
        const output = item.output;
        const content =
          typeof output === "string"
            ? output
            : output.map((part, i) =>
                part.type === "input_text" || part.type === "text" || part.type === "output_text"
                  ? { type: "text", text: partText(part) }
                  : unsupported(`${where}.output[${i}] has type "${part.type}", which a chat tool message cannot carry`),
              );
        messages.push({ role: "tool", tool_call_id: item.call_id, content });
        break;
      }
    }
    if (options.returnTokenIds) assistant.token(readBundle(item, where));
  });
  assistant.flush(messages);

  // `instructions` opens the model's context; chat backends often allow one system message, first, so the leading
  // system/developer run folds into it.
  if (instructions) {
    const leading = [instructions];
    while (messages[0] && (messages[0].role === "system" || messages[0].role === "developer")) {
      const content = messages.shift()!.content;
      leading.push(
        typeof content === "string"
          ? content
          : Array.isArray(content)
            ? content.map((p) => (isRecord(p) && typeof p.text === "string" ? p.text : "")).join("")
            : "",
      );
    }
    messages.unshift({ role: "system", content: leading.join("\n\n") });
  }
  return messages;
}

export function toChatTools(tools: ResponsesCreateParams["tools"]): Record<string, unknown>[] {
  return (tools ?? []).map((tool, index) => {
    if (!isFunctionTool(tool)) unsupported(`tools[${index}] has type "${tool.type}"; only function tools reach the model`);
    // NeMo Gym drops `strict`: vLLM's function definition is name, description, parameters.
    const fn: Record<string, unknown> = { name: tool.name };
    if (tool.description != null) fn.description = tool.description;
    if (tool.parameters != null) fn.parameters = tool.parameters;
    return { type: "function", function: fn };
  });
}

function toChatToolChoice(choice: unknown): unknown {
  if (isRecord(choice) && choice.type === "function" && typeof choice.name === "string") {
    return { type: "function", function: { name: choice.name } };
  }
  return choice;
}

/** Responses `text.format` → chat `response_format`, so structured output is enforced by vLLM too. */
function toResponseFormat(text: unknown): unknown {
  const format = isRecord(text) ? text.format : undefined;
  if (!isRecord(format) || format.type === "text") return undefined;
  if (format.type === "json_schema") {
    const { type: _type, ...schema } = format;
    return { type: "json_schema", json_schema: schema };
  }
  return format;
}

/** Fields a Chat Completions request has no use for, or that are mapped one by one below. */
const NOT_PASSED = new Set([
  "input",
  "instructions",
  "tools",
  "tool_choice",
  "parallel_tool_calls",
  "model",
  "max_output_tokens",
  "reasoning",
  "metadata",
  "stream",
  "stream_options",
  "text",
  "background",
  "conversation",
  "include",
  "max_tool_calls",
  "previous_response_id",
  "prompt",
  "prompt_cache_key",
  "prompt_cache_retention",
  "safety_identifier",
  "store",
  "truncation",
  "service_tier",
  "context_management",
]);

/** A Responses create request as the Chat Completions request vLLM takes (before the proxy's own overrides). */
export function toChatRequest(params: ResponsesCreateParams, options: ConvertOptions): ChatBody {
  const body: ChatBody = { model: options.model, messages: toChatMessages(params.input, params.instructions, options) };
  const tools = toChatTools(params.tools);
  if (tools.length) {
    body.tools = tools;
    if (params.tool_choice != null) body.tool_choice = toChatToolChoice(params.tool_choice);
    if (params.parallel_tool_calls != null) body.parallel_tool_calls = params.parallel_tool_calls;
  } else if (params.tool_choice === "required") {
    // Without tools, tool_choice and parallel_tool_calls mean nothing (and vLLM rejects them), but "required" cannot be met.
    unsupported('tool_choice "required" needs at least one tool');
  }
  if (params.max_output_tokens != null) body.max_tokens = params.max_output_tokens;
  if (params.reasoning?.effort != null) body.reasoning_effort = params.reasoning.effort;
  const format = toResponseFormat(params.text);
  if (format) body.response_format = format;
  // Sampling fields and vLLM's extras (top_k, min_p, chat_template_kwargs, …) pass through by name; nulls say nothing.
  for (const [key, value] of Object.entries(params)) {
    if (value !== null && value !== undefined && !NOT_PASSED.has(key)) body[key] = value;
  }
  return body;
}

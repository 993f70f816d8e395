// The simulator's tokenizer and chat template: real BPE ids (cl100k_base) in a ChatML layout like Qwen's, plus the
// on-policy splice NeMo RL's vLLM applies when earlier assistant messages carry their token ids.
import { decode, encode } from "gpt-tokenizer/encoding/cl100k_base";
import type { ChatCompletionRequest, ChatMessage, ChatTool } from "./schema.js";
import { isRecord, messageText, parseMaybeJson } from "./text.js";

export const IM_START = 100264;
/** `<|im_end|>`: ends every message, and every generation (the model's EOS). */
export const IM_END = 100265;

// Special-token strings inside message text are plain text, as a template renderer treats user content.
const AS_TEXT = { disallowedSpecial: new Set<string>() };

// BPE over one very long "word" (150 kB of "x") is slow in a JS tokenizer; such runs are encoded in slices. Ordinary
// text never has them, so its ids are the tokenizer's own.
const LONG_RUN = /\S{256,}/g;
const SLICE = 64;

function append(ids: number[], more: readonly number[]): void {
  for (const id of more) ids.push(id);
}

export function encodeText(text: string): number[] {
  if (!text) return [];
  if (text.length < 256) return encode(text, AS_TEXT);
  const ids: number[] = [];
  let from = 0;
  for (const run of text.matchAll(LONG_RUN)) {
    append(ids, encode(text.slice(from, run.index), AS_TEXT));
    for (let i = 0; i < run[0].length; i += SLICE) append(ids, encode(run[0].slice(i, i + SLICE), AS_TEXT));
    from = run.index + run[0].length;
  }
  append(ids, encode(text.slice(from), AS_TEXT));
  return ids;
}

export function decodeTokens(ids: readonly number[]): string {
  return decode(ids);
}

const NEWLINE = encodeText("\n");

/** JSON as Python's json.dumps writes it (", " and ": "), which is how chat templates render arguments and tools. */
export function pythonJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(", ")}]`;
  if (isRecord(value))
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}: ${pythonJson(v)}`)
      .join(", ")}}`;
  return JSON.stringify(value) ?? "null";
}

function toolsBlock(tools: readonly ChatTool[]): string {
  return [
    "# Tools",
    "",
    "You may call one or more functions to assist with the user query.",
    "",
    "You are provided with function signatures within <tools></tools> XML tags:",
    "<tools>",
    ...tools.map(pythonJson),
    "</tools>",
    "",
    "For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:",
    "<tool_call>",
    '{"name": <function-name>, "arguments": <args-json-object>}',
    "</tool_call>",
  ].join("\n");
}

/** A tool call as the template renders it back: arguments re-serialised, which need not match what the model wrote. */
export function renderToolCall(name: string, args: string): string {
  const parsed = parseMaybeJson(args);
  const rendered = isRecord(parsed) ? pythonJson(parsed) : JSON.stringify(args);
  return `<tool_call>\n{"name": "${name}", "arguments": ${rendered}}\n</tool_call>`;
}

function reasoningOf(message: ChatMessage): string {
  const value = message.reasoning ?? message.reasoning_content;
  return typeof value === "string" ? value : "";
}

/** The text between an assistant turn's header and its `<|im_end|>`. */
function assistantBody(message: ChatMessage): string {
  const reasoning = reasoningOf(message);
  let body = messageText(message);
  for (const call of message.tool_calls ?? []) {
    body += `${body ? "\n" : ""}${renderToolCall(call.function.name, call.function.arguments)}`;
  }
  return reasoning ? `<think>\n${reasoning}\n</think>\n\n${body}` : body;
}

// Every turn of a rollout re-sends the conversation so far: remember recent renderings instead of re-encoding them.
const turnCache = new Map<string, readonly number[]>();
const TURN_CACHE_SIZE = 4096;

function turn(role: string, body: string): readonly number[] {
  const key = `${role}\n${body}`;
  let tokens = turnCache.get(key);
  if (!tokens) {
    tokens = [IM_START, ...encodeText(key), IM_END, ...NEWLINE];
    if (turnCache.size >= TURN_CACHE_SIZE) turnCache.delete(turnCache.keys().next().value!);
    turnCache.set(key, tokens);
  }
  return tokens;
}

/** Each message's tokens, tools folded into the (first) system message. */
function messageTokens(messages: readonly ChatMessage[], tools: readonly ChatTool[]): (readonly number[])[] {
  const rendered: (readonly number[])[] = [];
  const first = messages[0];
  const hasSystem = first !== undefined && (first.role === "system" || first.role === "developer");
  if (tools.length && !hasSystem) rendered.push(turn("system", toolsBlock(tools)));
  messages.forEach((message, index) => {
    switch (message.role) {
      case "assistant":
        rendered.push(turn("assistant", assistantBody(message)));
        break;
      case "tool":
      case "function":
        rendered.push(turn("user", `<tool_response>\n${messageText(message)}\n</tool_response>`));
        break;
      default: {
        let text = messageText(message);
        if (index === 0 && hasSystem && tools.length) text = text ? `${text}\n\n${toolsBlock(tools)}` : toolsBlock(tools);
        rendered.push(turn(message.role, text));
      }
    }
  });
  return rendered;
}

function carriedTokens(message: ChatMessage): { prompt: number[]; generation: number[] } | null {
  const prompt = message.prompt_token_ids;
  const generation = message.generation_token_ids;
  return Array.isArray(prompt) && Array.isArray(generation) ? { prompt: prompt as number[], generation: generation as number[] } : null;
}

/**
 * The prompt's token ids. When an earlier assistant message carries the ids it was sampled with (the on-policy fix),
 * everything up to that message's EOS is those exact ids, and only what follows is re-templated.
 */
export function promptTokenIds(request: Pick<ChatCompletionRequest, "messages" | "tools">, addGenerationPrompt = true): number[] {
  const messages = request.messages;
  const tools = request.tools ?? [];
  const rendered = messageTokens(messages, tools);
  const full = rendered.flat();
  if (addGenerationPrompt) full.push(IM_START, ...encodeText("assistant\n"));

  let last = -1;
  messages.forEach((message, i) => {
    if (message.role === "assistant" && carriedTokens(message)) last = i;
  });
  if (last < 0) return full;
  const carried = carriedTokens(messages[last]!)!;
  // The templated prefix through that assistant message (one system turn may precede the messages for tools).
  const offset = rendered.length - messages.length;
  const prefixLength = rendered.slice(0, offset + last + 1).reduce((sum, tokens) => sum + tokens.length, 0);
  const eos = full.lastIndexOf(IM_END, prefixLength - 1);
  return [...carried.prompt, ...carried.generation, ...full.slice(eos + 1)];
}

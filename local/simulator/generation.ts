// What the simulated model generates: the raw text a Qwen-style model would write, its token ids and logprobs, cut at
// max_tokens, and the parsed form vLLM's reasoning and tool-call parsers would return.
import { randomBytes } from "node:crypto";
import type { FinishReason } from "./schema.js";
import { decodeTokens, encodeText, IM_END, pythonJson } from "./template.js";
import { isRecord, parseMaybeJson } from "./text.js";

/** What the simulator decided to say, before it is written out as text and tokens. */
export interface Reply {
  content: string | null;
  reasoning: string | null;
  tool_calls: Array<{ name: string; arguments: string }>;
  /** A scripted finish reason; otherwise it follows from the generation. */
  finish_reason?: FinishReason;
}

export interface WireToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export interface Generation {
  /** The generated text, EOS excluded (vLLM skips special tokens in text). */
  text: string;
  /** Generated token ids, EOS included when the model stopped by itself. */
  ids: number[];
  logprobs: number[];
  finishReason: FinishReason;
  content: string | null;
  reasoning: string | null;
  toolCalls: WireToolCall[];
}

/** vLLM's id for a parsed tool call. */
export function toolCallId(): string {
  return `chatcmpl-tool-${randomBytes(16).toString("hex")}`;
}

/** The model writes arguments as it likes (here: compactly); a chat template later re-renders them its own way. */
function rawText(reply: Reply): string {
  let text = reply.content ?? "";
  for (const call of reply.tool_calls) {
    text += `${text ? "\n" : ""}<tool_call>\n{"name": "${call.name}", "arguments": ${call.arguments}}\n</tool_call>`;
  }
  return reply.reasoning ? `<think>\n${reply.reasoning}\n</think>\n\n${text}` : text;
}

/** Hermes-style parsing returns arguments re-dumped by Python's json; arguments that are not an object pass as written. */
function parsedArguments(args: string): string {
  const parsed = parseMaybeJson(args);
  return isRecord(parsed) ? pythonJson(parsed) : args;
}

/** A deterministic stand-in for the sampler's log-probability of a token at a position, in (-2.5, 0]. */
export function logprobOf(id: number, position: number): number {
  const mixed = (Math.imul(id, 2654435761) ^ Math.imul(position + 1, 40503)) >>> 0;
  return -Math.round(((mixed % 100_000) / 100_000) * 2.5 * 1e6) / 1e6;
}

/** A truncated generation as vLLM's parsers would read it: reasoning until `</think>`, the rest as plain content. */
function parseTruncated(text: string): { content: string | null; reasoning: string | null } {
  if (!text.startsWith("<think>")) return { content: text || null, reasoning: null };
  const end = text.indexOf("</think>");
  if (end < 0) return { content: null, reasoning: text.slice("<think>".length).replace(/^\n/, "") };
  return {
    reasoning: text.slice("<think>".length, end).replace(/^\n/, "").replace(/\n$/, ""),
    content: text.slice(end + "</think>".length).replace(/^\n+/, "") || null,
  };
}

/** Writes a reply out as tokens, stopping at `maxTokens` (finish_reason "length") as vLLM would. */
export function generate(reply: Reply, maxTokens: number): Generation {
  const text = rawText(reply);
  const body = encodeText(text);
  let ids: number[];
  let finishReason: FinishReason;
  let truncated = false;
  if (reply.finish_reason === "length") {
    ids = body;
    finishReason = "length";
  } else if (body.length + 1 > maxTokens) {
    ids = body.slice(0, Math.max(0, maxTokens));
    finishReason = "length";
    truncated = true;
  } else {
    ids = [...body, IM_END];
    finishReason = reply.finish_reason ?? (reply.tool_calls.length ? "tool_calls" : "stop");
  }
  const logprobs = ids.map((id, position) => logprobOf(id, position));

  if (truncated) {
    const cut = decodeTokens(ids);
    return { text: cut, ids, logprobs, finishReason, ...parseTruncated(cut), toolCalls: [] };
  }
  return {
    text,
    ids,
    logprobs,
    finishReason,
    content: reply.content ?? (reply.tool_calls.length ? null : ""),
    reasoning: reply.reasoning,
    toolCalls: reply.tool_calls.map((call) => ({
      id: toolCallId(),
      type: "function",
      function: { name: call.name, arguments: parsedArguments(call.arguments) },
    })),
  };
}

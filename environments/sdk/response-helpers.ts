// Reading a NeMo Gym `response` the way verifiers need: its function calls and the assistant's text.
import { contentText, type FunctionCallItem, type MessageItem, type Response } from "../../protocol/index.js";
import { pySub } from "./python/sub.js";
import { pyStrip } from "./python/text.js";

export function functionCalls(response: Response): FunctionCallItem[] {
  return response.output.filter((item): item is FunctionCallItem => item.type === "function_call");
}

export function assistantMessages(response: Response): MessageItem[] {
  return response.output.filter((item): item is MessageItem => item.type === "message" && item.role === "assistant");
}

/** The text of one output message. */
export function outputText(message: MessageItem): string {
  return contentText(message.content);
}

/** The last assistant message's text, as most NeMo Gym verifiers read the final answer ("" when there is none). */
export function lastAssistantText(response: Response): string {
  const messages = assistantMessages(response);
  const last = messages[messages.length - 1];
  return last ? outputText(last) : "";
}

/**
 * Every output_text part of every message, joined without a separator — the OpenAI SDK's Response.output_text and
 * NeMo Gym's extract_text. A message whose content is a plain string counts as its text.
 */
export function allOutputText(response: Response): string {
  let text = "";
  for (const item of response.output) {
    if (item.type !== "message") continue;
    if (typeof item.content === "string") text += item.content;
    else for (const part of item.content) if (part.type === "output_text") text += part.text ?? "";
  }
  return text;
}

/**
 * A message's texts as NeMo Gym's verifiers gather them: each content part's `text` that is a str, or the content itself
 * when it is a str; null when the content is neither (the verifiers skip such a message).
 */
export function messageTexts(message: MessageItem): string[] | null {
  const content: unknown = message.content;
  if (typeof content === "string") return [content];
  if (!Array.isArray(content)) return null;
  return content.flatMap((part: { text?: unknown }) => (typeof part?.text === "string" ? [part.text] : []));
}

const DOTALL = { dotAll: true };

/**
 * NeMo Gym's thinking-trace removal (abstention's _strip_thinking_traces; inverse_if's and multichallenge's
 * exclude_thinking): `<think>…</think>` and `<thinking>…</thinking>` blocks, then everything up to an unpaired closing tag
 * (the opening one was in the prompt), then strip().
 */
export function stripThinkingTraces(text: string): string {
  let out = pySub("<think>.*?</think>", text, () => "", DOTALL);
  out = pySub("<thinking>.*?</thinking>", out, () => "", DOTALL);
  out = pySub("^.*?</think>", out, () => "", DOTALL);
  out = pySub("^.*?</thinking>", out, () => "", DOTALL);
  return pyStrip(out);
}

/**
 * NeMo Gym's `_extract_text_from_response` (inverse_if, multichallenge): the last assistant message whose content is a
 * list or a str, its texts joined by "\n" and stripped, thinking traces removed unless `excludeThinking` is false.
 */
export function lastAssistantAnswer(response: Response, excludeThinking = true): string {
  for (let i = response.output.length - 1; i >= 0; i--) {
    const item = response.output[i]!;
    if (item.type !== "message" || item.role !== "assistant") continue;
    const texts = messageTexts(item);
    if (texts === null) continue;
    const text = pyStrip(texts.join("\n"));
    return excludeThinking ? stripThinkingTraces(text) : text;
  }
  return "";
}

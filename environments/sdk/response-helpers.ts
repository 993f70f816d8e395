// Reading a NeMo Gym `response` the way verifiers need: its function calls and the assistant's text.
import { contentText, type FunctionCallItem, type MessageItem, type Response } from "../../protocol/index.js";

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

// NeMo Gym's multichallenge texts: the response without thinking, the conversation as context, the judge's YES/NO.
import type { Response as ResponsesResponse } from "../../protocol/index.js";
import { pyStrip } from "../sdk/python/text.js";

/** `<think>…</think>` blocks (re.DOTALL), then an unpaired closing tag's prefix (the opening tag was in the prompt). */
function withoutThinking(text: string): string {
  return text
    .replace(/<think>[\s\S]*?<\/think>/g, "")
    .replace(/<thinking>[\s\S]*?<\/thinking>/g, "")
    .replace(/^[\s\S]*?<\/think>/, "")
    .replace(/^[\s\S]*?<\/thinking>/, "");
}

/** _extract_text_from_response: the last assistant message with text content, its parts joined by "\n", thinking removed. */
export function responseText(response: ResponsesResponse): string {
  for (let i = response.output.length - 1; i >= 0; i--) {
    const item = response.output[i]!;
    if (item.type !== "message" || item.role !== "assistant") continue;
    const content: unknown = item.content;
    let text: string;
    if (Array.isArray(content)) {
      const texts = content.flatMap((part: { text?: unknown }) => (typeof part?.text === "string" ? [part.text] : []));
      text = pyStrip(texts.join("\n"));
    } else if (typeof content === "string") text = pyStrip(content);
    else continue;
    return pyStrip(withoutThinking(text));
  }
  return "";
}

/** _build_context_from_messages: `[ROLE]: content` blocks joined by blank lines, "thinking" turns left out. */
export function buildContext(messages: unknown, excludeThinking = true): string {
  if (!Array.isArray(messages)) throw new TypeError("metadata.messages must be a list of messages");
  const parts: string[] = [];
  for (const message of messages) {
    if (message === null || typeof message !== "object" || Array.isArray(message)) throw new TypeError("a message in metadata.messages must be an object");
    const record = message as Record<string, unknown>;
    const role = Object.hasOwn(record, "role") ? record.role : "unknown";
    const content = Object.hasOwn(record, "content") ? record.content : "";
    if (excludeThinking && role === "thinking") continue;
    if (typeof role !== "string") throw new TypeError("a message's role must be a string (NeMo Gym calls role.upper())");
    // An f-string prints a non-str content as Python's str(); only text content is ported.
    if (typeof content !== "string") throw new TypeError("a message's content must be a string in this port");
    parts.push(`[${role.toUpperCase()}]: ${content}`);
  }
  return parts.join("\n\n");
}

/** _extract_verdict: whichever label occurs last; neither → YES/NO in the last line; else NO. */
export function extractVerdict(text: string, yesLabel: string, noLabel: string): "YES" | "NO" {
  const yes = text.lastIndexOf(yesLabel);
  const no = text.lastIndexOf(noLabel);
  if (yes < 0 && no < 0) {
    const lines = pyStrip(text).split("\n");
    const last = pyStrip(lines[lines.length - 1]!).toUpperCase();
    if (last.includes("YES")) return "YES";
    return "NO";
  }
  return yes > no ? "YES" : "NO";
}

// NeMo Gym's multichallenge texts: the response without thinking, the conversation as context, the judge's YES/NO.
import type { Response as ResponsesResponse } from "../../protocol/index.js";
import { pyStrip } from "../sdk/python/text.js";
import { lastAssistantAnswer } from "../sdk/response-helpers.js";

/** _extract_text_from_response: the last assistant text, thinking removed (environments/sdk/response-helpers.ts). */
export const responseText = (response: ResponsesResponse): string => lastAssistantAnswer(response);

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

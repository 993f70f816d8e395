// Small text utilities shared by the policy and the response builder.
import type { ChatMessage } from "./schema.js";

/** The text of a message, whatever shape its content has (string, parts, null). */
export function messageText(message: ChatMessage): string {
  const { content } = message;
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => (typeof part.text === "string" ? part.text : ""))
      .filter((text) => text.length > 0)
      .join("\n");
  }
  return "";
}

/** Lower-case words (letters, digits, apostrophes), in order. */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
}

/** Integers and decimals in order of appearance. */
export function numbers(text: string): number[] {
  return (text.match(/-?\d+(?:\.\d+)?/g) ?? []).map(Number);
}

// Quoted spans: "…", “…”, or '…' where the quotes are not apostrophes inside words.
const QUOTED = /"([^"]*)"|“([^”]*)”|(?<![\p{L}])'([^']*)'(?![\p{L}])/gu;

/** Text between matching quotes ('…', "…", “…”), in order. */
export function quoted(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(QUOTED)) {
    const value = match[1] ?? match[2] ?? match[3];
    if (value !== undefined && value.length > 0) found.push(value);
  }
  return found;
}

/** The text with quoted spans blanked out: what the user says, not what they want passed along. */
export function withoutQuoted(text: string): string {
  return text.replace(QUOTED, " ");
}

export interface Span {
  text: string;
  index: number;
}

/** Runs of Capitalised Words ("San Francisco", "New York"), with their position. */
export function capitalisedRuns(text: string): Span[] {
  const runs: Span[] = [];
  for (const match of text.matchAll(/\p{Lu}[\p{L}.'-]*(?:[ \t]+\p{Lu}[\p{L}.'-]*)*/gu)) {
    runs.push({ text: match[0].replace(/[.'-]+$/u, ""), index: match.index });
  }
  return runs;
}

/** Capitalised runs that are not just a sentence's first word (or "I"): likely names. */
export function names(text: string): string[] {
  return capitalisedRuns(text)
    .filter((run) => !/(^|[.!?:]\s*)$/.test(text.slice(0, run.index).trimEnd()) || run.text.includes(" "))
    .map((run) => run.text)
    .filter((name) => name !== "I" && !name.startsWith("I'"));
}

/** The first `limit` words of a text, for echoing the user back. */
export function snippet(text: string, limit = 16): string {
  const parts = text
    .trim()
    .split(/\s+/)
    .filter((part) => part.length > 0);
  const head = parts.slice(0, limit).join(" ");
  return parts.length > limit ? `${head}…` : head;
}

/** JSON with sorted keys, so equal arguments compare equal whatever their key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([key, inner]) => [key, sortKeys(inner)]));
  }
  return value;
}

/** Parses JSON if it is JSON; tool outputs are usually JSON but need not be. */
export function parseMaybeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // Not JSON: the text itself is the value (the doc above).
    return text;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

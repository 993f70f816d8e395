// NeMo Gym bbq/util.py's text helpers: prompt/response text extraction, {{name}} rendering and json_for_prompt.
import type { PyValue } from "../sdk/python/order.js";
import { pyJsonDumps } from "../sdk/python/json-value.js";
import { pyStrip } from "../sdk/python/text.js";

/** A bad template or value set: NeMo Gym's MetadataValidationError (no reward). */
export class MetadataValidationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MetadataValidationError";
  }
}

const get = (value: unknown, key: string): unknown => (value && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined);
/** Python truthiness of `_get(...) or fallback` for the values these fields hold. */
const orElse = <T>(value: unknown, fallback: T): unknown => (value === undefined || value === null || value === "" || value === false ? fallback : value);

/** _content_text: a string stripped, or the stripped nonblank text/refusal of each part joined by newlines. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return pyStrip(content);
  const parts: string[] = [];
  for (const block of Array.isArray(content) ? content : []) {
    const text = orElse(get(block, "text"), get(block, "refusal"));
    if (typeof text === "string" && pyStrip(text)) parts.push(pyStrip(text));
  }
  return pyStrip(parts.join("\n"));
}

/** extract_policy_prompt: the input as "ROLE:\ncontent" blocks joined by blank lines (a plain string input as is). */
export function extractPolicyPrompt(body: unknown): string {
  const input = get(get(body, "responses_create_params"), "input");
  if (typeof input === "string") return pyStrip(input);
  const parts: string[] = [];
  for (const item of Array.isArray(input) ? input : []) {
    const role = String(orElse(get(item, "role"), "input")).toUpperCase();
    const content = contentText(get(item, "content"));
    if (content) parts.push(`${role}:\n${content}`);
  }
  return pyStrip(parts.join("\n\n"));
}

/** extract_last_assistant_text: the text of the last assistant message that has any. */
export function extractLastAssistantText(body: unknown): string {
  const response = orElse(get(body, "response"), body);
  const output = get(response, "output");
  for (const item of [...(Array.isArray(output) ? output : [])].reverse()) {
    if (get(item, "type") === "message" && get(item, "role") === "assistant") {
      const text = contentText(get(item, "content"));
      if (text) return text;
    }
  }
  return "";
}

const PLACEHOLDER = /\{\{([A-Za-z_][A-Za-z0-9_]*)\}\}/g;

/** render_template: every {{name}} replaced, none missing, none unused; inserted text is not interpreted. */
export function renderTemplate(template: string, values: Record<string, string>): string {
  const placeholders = new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1]!));
  const missing = [...placeholders].filter((name) => !(name in values)).sort();
  if (missing.length) throw new MetadataValidationError(`missing prompt-template values: [${missing.map((n) => `'${n}'`).join(", ")}]`);
  const unused = Object.keys(values)
    .filter((name) => !placeholders.has(name))
    .sort();
  if (unused.length) throw new MetadataValidationError(`unused prompt-template values: [${unused.map((n) => `'${n}'`).join(", ")}]`);
  return template.replace(PLACEHOLDER, (_match, name: string) => values[name]!);
}

/** json_for_prompt: json.dumps(ensure_ascii=True, sort_keys=True) with <, > and & escaped so no tag can be closed. */
export function jsonForPrompt(value: PyValue): string {
  return pyJsonDumps(value, { ensureAscii: true, sortKeys: true }).replaceAll("<", "\\u003c").replaceAll(">", "\\u003e").replaceAll("&", "\\u0026");
}

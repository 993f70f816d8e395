// Answer extraction for string_match: the assistant's text, then a boxed, "Answer:", last-line or whole-text answer.
import type { Response } from "../../protocol/index.js";
import { pyRstrip, pySplitlines, pyStrip, PY_WHITESPACE } from "../sdk/python/text.js";

export type ExtractionMode = "boxed" | "final_answer" | "last_line" | "full_response";

const S = `[${PY_WHITESPACE}]`;
const LATEX_TEXT_WRAP = new RegExp(`^\\\\text\\{${S}*([\\s\\S]*?)${S}*\\}$`, "u");
// Python's IGNORECASE also lets i match ı and İ, which JS's i flag does not fold.
const FINAL_ANSWER = new RegExp(`(?:f[i\\u0131\\u0130]nal${S}+answer|answer)${S}*[:：]${S}*([^\\n]+)`, "giu");
const TRAILING_PERIOD = new RegExp(`\\.${S}*$`, "u");

/** Every text part of every assistant message, one per line, stripped. */
export function assistantText(response: Response): string {
  const texts: string[] = [];
  for (const item of response.output) {
    if (item.type !== "message" || item.role !== "assistant") continue;
    if (typeof item.content === "string") texts.push(item.content);
    else for (const part of item.content) if (typeof part.text === "string") texts.push(part.text);
  }
  return pyStrip(texts.join("\n"));
}

function stripLatexWrappers(text: string): string {
  let out = text;
  for (let m = LATEX_TEXT_WRAP.exec(out); m; m = LATEX_TEXT_WRAP.exec(out)) out = m[1]!;
  return out;
}

/** The last \boxed{...} that closes (an unclosed later box falls back to an earlier one), unwrapped. */
function extractBoxed(text: string): string | null {
  const marker = "\\boxed{";
  for (let start = text.lastIndexOf(marker); start !== -1; start = start === 0 ? -1 : text.lastIndexOf(marker, start - 1)) {
    let depth = 1;
    const innerStart = start + marker.length;
    for (let i = innerStart; i < text.length; i++) {
      if (text[i] === "{") depth++;
      else if (text[i] === "}" && --depth === 0) return pyStrip(stripLatexWrappers(pyStrip(text.slice(innerStart, i))));
    }
  }
  return null;
}

/** The last "Final answer: ..." or "Answer: ..." value, without a final period. */
function extractFinalAnswer(text: string): string | null {
  const matches = [...text.matchAll(FINAL_ANSWER)];
  const last = matches[matches.length - 1];
  if (!last) return null;
  const raw = pyStrip(last[1]!);
  const period = TRAILING_PERIOD.exec(raw);
  return pyRstrip(pyStrip(period ? raw.slice(0, period.index) : raw), ".");
}

function extractLastLine(text: string): string | null {
  const lines = pySplitlines(text);
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = pyStrip(lines[i]!);
    if (line) return line;
  }
  return null;
}

export function extractAnswer(text: string, mode: ExtractionMode): string | null {
  switch (mode) {
    case "boxed":
      return extractBoxed(text);
    case "final_answer":
      return extractFinalAnswer(text) ?? extractBoxed(text);
    case "last_line":
      return extractLastLine(text);
    case "full_response":
      return pyStrip(text) || null;
  }
}

// Reading the question, the expected and the generated answer out of a verify request, as NeMo Gym's equivalence_llm_judge does.
import type { ResponsesCreateParams, Response as ResponsesResponse } from "../../protocol/index.js";
import { compilePython, PythonRegexError } from "../sdk/python/findall.js";

/** Python's len: code points. */
export const pyLen = (text: string) => [...text].length;

/** The pattern with re.MULTILINE | re.DOTALL, as NeMo Gym compiles every extraction regex. */
function withMultilineDotall(pattern: string): string {
  const leading = /^\(\?([aiLmsux]+)\)/.exec(pattern);
  return leading ? `(?${leading[1]}ms)${pattern.slice(leading[0].length)}` : `(?ms)${pattern}`;
}

/**
 * The last match of a Python regex: its first non-empty group, else the whole match, stripped.
 * null when nothing matches or the pattern is not valid Python (re.error, which NeMo Gym swallows).
 */
export function lastMatch(pattern: string, text: string): string | null {
  let regex: RegExp;
  try {
    const { search } = compilePython(withMultilineDotall(pattern), false);
    // A copy: the compiled pattern is cached and shared, and exec moves lastIndex.
    regex = new RegExp(search.source, search.flags);
  } catch (error) {
    if (error instanceof PythonRegexError) return null;
    throw error;
  }
  let last: RegExpExecArray | null = null;
  regex.lastIndex = 0;
  for (let m = regex.exec(text); m !== null; m = regex.exec(text)) {
    last = m;
    if (m[0] === "") regex.lastIndex++;
  }
  if (!last) return null;
  for (const group of last.slice(1)) if (typeof group === "string" && group.trim() !== "") return group.trim();
  return last[0].trim();
}

/** The text of the last user message; a multimodal turn's text blocks joined by newlines (images left out). */
export function questionText(params: ResponsesCreateParams, extractRegex: string | null): string {
  let last: string | null = null;
  // A plain-string input is iterated character by character in NeMo Gym and so yields no user message.
  if (Array.isArray(params.input)) {
    for (const item of params.input) {
      if (item.type !== "message" || item.role !== "user") continue;
      if (typeof item.content === "string") last = item.content;
      else {
        const texts = item.content.flatMap((part) => (typeof part.text === "string" ? [part.text] : []));
        if (texts.length > 0) last = texts.join("\n");
      }
    }
  }
  const text = (last ?? "").trim();
  if (!text || !extractRegex) return text;
  return lastMatch(extractRegex, text) ?? text;
}

/** The last assistant message's text (its text parts joined by newlines), or the failure message when there is none. */
export function lastAssistantText(response: ResponsesResponse, extractRegex: string | null, failureMessage: string): string {
  for (let i = response.output.length - 1; i >= 0; i--) {
    const item = response.output[i]!;
    if (item.type !== "message" || item.role !== "assistant") continue;
    const texts = typeof item.content === "string" ? [item.content] : item.content.flatMap((part) => (typeof part.text === "string" ? [part.text] : []));
    const text = texts.join("\n").trim();
    if (!text) return failureMessage;
    if (!extractRegex) return text;
    return lastMatch(extractRegex, text) ?? text;
  }
  return failureMessage;
}

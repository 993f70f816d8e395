// Reading NeMo Gym's inverse_if texts: a response's last assistant text without thinking, and the judge's PASS/FAIL verdict.
import { lastAssistantAnswer } from "../sdk/response-helpers.js";
import { compilePythonRegex } from "../sdk/python/regex.js";
import { pyJsonLoads, PythonJsonDecodeError } from "../sdk/python/json.js";
import { pyStrip } from "../sdk/python/text.js";

/** NeMo Gym's _extract_text_from_response: the last assistant text, thinking removed (environments/sdk/response-helpers.ts). */
export const responseText = lastAssistantAnswer;

type Json = string | number | boolean | null | Json[] | Map<string, Json>;
const asMap = { dict: (pairs: [string, Json][]) => new Map(pairs) };

export type Verdict = [verdict: "PASS" | "FAIL", explanation: unknown];

/** `parsed.get("result", "").upper().strip()` and the explanation; null where Python raises (caught) or the result is neither. */
function fromJson(text: string): Verdict | null {
  let parsed: Json;
  try {
    parsed = pyJsonLoads<Json>(text, asMap);
  } catch (error) {
    if (error instanceof PythonJsonDecodeError) return null;
    throw error;
  }
  // A list has no .get and a non-str result no .upper: AttributeError, caught in NeMo Gym.
  if (!(parsed instanceof Map)) return null;
  const raw = parsed.has("result") ? parsed.get("result") : "";
  if (typeof raw !== "string") return null;
  const result = pyStrip(raw.toUpperCase());
  if (result !== "PASS" && result !== "FAIL") return null;
  return [result, parsed.has("explanation") ? parsed.get("explanation") : ""];
}

const FENCED = "```(?:json)?\\s*(\\{.*?\\})\\s*```";
const RESULT_OBJECT = '\\{[^{}]*\\"result\\"\\s*:\\s*\\"(PASS|FAIL)\\"[^{}]*\\}';

/** NeMo Gym's _extract_verdict: a fenced JSON block, else a JSON object with "result", else PASS/FAIL in the last 5 lines; else FAIL. */
export function extractVerdict(judgeText: string): Verdict {
  const fenced = compilePythonRegex(FENCED, { dotAll: true }).regex.exec(judgeText);
  if (fenced) {
    const verdict = fromJson(fenced.groups!.g1!);
    if (verdict) return verdict;
  }
  const object = compilePythonRegex(RESULT_OBJECT, { ignoreCase: true }).regex.exec(judgeText);
  if (object) {
    const verdict = fromJson(object[0]);
    if (verdict) return verdict;
  }
  const lines = pyStrip(judgeText).split("\n");
  for (const line of lines.slice(-5).reverse()) {
    const upper = pyStrip(line).toUpperCase();
    if (upper.includes("PASS")) return ["PASS", ""];
    if (upper.includes("FAIL")) return ["FAIL", ""];
  }
  return ["FAIL", ""];
}

// Port of NeMo Gym's format_verification: formatting checked by line regexes, or citation markers by string match.
import type { Response as ResponsesResponse } from "../../protocol/index.js";
import { defineEnvironment, z, type SimpleEnvironment } from "../sdk/index.js";
import { pyFinditerWhole, pySearches } from "./python.js";

/** _extract_assistant_text: every message's output_text parts, joined without a separator. */
export function assistantText(response: ResponsesResponse): string {
  let text = "";
  for (const item of response.output) {
    if (item.type !== "message" || !Array.isArray(item.content)) continue;
    for (const part of item.content) if (part.type === "output_text") text += part.text ?? "";
  }
  return text;
}

/** `verifier.get(key, fallback)` that must be a list of str for the checks (Python raises a TypeError otherwise). */
function strings(verifier: Record<string, unknown>, key: string): string[] {
  const value = Object.hasOwn(verifier, key) ? verifier[key] : [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) throw new TypeError(`verifier.${key} must be a list of strings`);
  return value as string[];
}

/** `matching_lines >= min_matches` on Python numbers (bool counts as 0/1); anything else cannot be compared. */
function atLeast(count: number, min: unknown): boolean {
  if (typeof min === "boolean") return count >= Number(min);
  if (typeof min === "number") return count >= min;
  throw new TypeError(`verifier.verify_min_matches must be a number, got ${JSON.stringify(min)}`);
}

/** Lines matching any pattern (each line once); passed when at least verify_min_matches. */
export function verifyRegex(text: string, verifier: Record<string, unknown>): [number, Record<string, unknown>] {
  const patterns = strings(verifier, "verify_regex");
  const minMatches = Object.hasOwn(verifier, "verify_min_matches") ? verifier.verify_min_matches : 1;
  for (const pattern of patterns) pySearches(pattern, ""); // re.compile every pattern first: a bad one raises even on empty text
  let matchingLines = 0;
  for (const line of text.split("\n")) if (patterns.some((p) => pySearches(p, line))) matchingLines++;
  const passed = atLeast(matchingLines, minMatches);
  return [passed ? 1.0 : 0.0, { matching_lines: matchingLines, min_matches: minMatches, passed }];
}

/** Every expected marker present, and no pattern match outside them. */
export function verifyStringMatch(text: string, verifier: Record<string, unknown>): [number, Record<string, unknown>] {
  const expected = strings(verifier, "expected_markers");
  const patterns = strings(verifier, "patterns");
  const missing = expected.filter((marker) => !text.includes(marker));
  const expectedSet = new Set(expected);
  const spurious = patterns.flatMap((pattern) => pyFinditerWhole(pattern, text).filter((found) => !expectedSet.has(found)));
  const passed = missing.length === 0 && spurious.length === 0;
  return [passed ? 1.0 : 0.0, { expected, missing, spurious, passed }];
}

export function formatVerificationEnvironment(): SimpleEnvironment {
  return defineEnvironment({
    name: "format_verification",
    description: "Formatting checked on the answer: lines matching regexes (bullets, headings, tables…), or exact citation markers.",
    task: z.object({ verifier: z.record(z.string(), z.unknown()) }),
    tools: {},
    verify: (request) => {
      const text = assistantText(request.response);
      const type = Object.hasOwn(request.verifier, "type") ? request.verifier.type : "";
      let result: [number, Record<string, unknown>];
      if (type === "regex" || type === "inline_prose") result = verifyRegex(text, request.verifier);
      else if (type === "string_match") result = verifyStringMatch(text, request.verifier);
      else throw new Error(`NotImplementedError: Verifier type must be 'regex' or 'string_match', got ${JSON.stringify(type)}`);
      return { reward: result[0], match_details: result[1] };
    },
  });
}

export default formatVerificationEnvironment();

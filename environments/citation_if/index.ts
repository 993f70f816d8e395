// Port of NeMo Gym's citation_if: citation instruction following scored by a gate sequence over the cited IDs.
import type { Response as ResponsesResponse } from "../../protocol/index.js";
import { defineEnvironment, z, type SimpleEnvironment } from "../sdk/index.js";
import { pyStrip } from "../sdk/python/text.js";
import { scoreCitationIf } from "./scorer.js";

/** extract_response_shape: the assistant's output_text/text blocks joined by "\n" (empty ones left out), and the function calls. */
export function responseShape(response: ResponsesResponse): [text: string, functionCalls: number] {
  const parts: string[] = [];
  let functionCalls = 0;
  for (const item of response.output as unknown[]) {
    if (item === null || typeof item !== "object" || Array.isArray(item)) continue;
    const record = item as Record<string, unknown>;
    if (record.type === "function_call") functionCalls++;
    if (record.type !== "message" || record.role !== "assistant") continue;
    // A str content iterates as characters in Python, none of them a dict: no text.
    if (!Array.isArray(record.content)) continue;
    for (const block of record.content as unknown[]) {
      if (block === null || typeof block !== "object") continue;
      const { type, text } = block as Record<string, unknown>;
      if ((type === "output_text" || type === "text") && typeof text === "string" && text !== "") parts.push(text);
    }
  }
  return [pyStrip(parts.join("\n")), functionCalls];
}

export function citationIfEnvironment(): SimpleEnvironment {
  return defineEnvironment({
    name: "citation_if",
    description: "Citation instruction following: every citation well-formed in the row's grammar, from the evidence, covering the gold IDs.",
    // NeMo Gym's CitationIfVerifyRequest: one free-form verifier dict drives the gates.
    task: z.object({ verifier: z.record(z.string(), z.unknown()) }),
    tools: {},
    verify: (request) => {
      const [text, functionCalls] = responseShape(request.response);
      const [reward, details] = scoreCitationIf(text, functionCalls, request.verifier);
      return { reward, match_details: details };
    },
  });
}

export default citationIfEnvironment();

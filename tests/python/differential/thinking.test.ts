// Differential: the SDK's answer-text readers (environments/sdk/response-helpers.ts) vs NeMo Gym's own functions, run by
// CPython: abstention's _strip_thinking_traces and inverse_if/multichallenge's _extract_text_from_response (getattr on
// pydantic items written as dict lookups), on generated texts and outputs.
import fc from "fast-check";
import { afterAll, beforeAll, describe, it } from "vitest";
import { lastAssistantAnswer, stripThinkingTraces } from "../../../environments/sdk/response-helpers.js";
import type { Response } from "../../../protocol/index.js";
import { answerOf, assertSame, Oracle } from "./oracle.js";

let oracle: Oracle;
beforeAll(async () => {
  oracle = await Oracle.start();
  // NeMo Gym's code at 07d6b0d (resources_servers/abstention/app.py, inverse_if/app.py), attribute reads as dict reads.
  await oracle.define(`
_THINK_TAG_RE = re.compile(r"<think>.*?</think>", re.DOTALL)
_THINKING_TAG_RE = re.compile(r"<thinking>.*?</thinking>", re.DOTALL)
def _strip_thinking_traces(text):
    text = _THINK_TAG_RE.sub("", text)
    text = _THINKING_TAG_RE.sub("", text)
    text = re.sub(r"^.*?</think>", "", text, flags=re.DOTALL)
    text = re.sub(r"^.*?</thinking>", "", text, flags=re.DOTALL)
    return text.strip()
def _extract_text_from_response(output, exclude_thinking):
    for item in reversed(output):
        if item.get("type") == "message" and item.get("role") == "assistant":
            content = item.get("content")
            if isinstance(content, list):
                texts = [c.get("text") for c in content if isinstance(c.get("text"), str)]
                full_text = "\\n".join(texts).strip()
            elif isinstance(content, str):
                full_text = content.strip()
            else:
                continue
            if exclude_thinking:
                full_text = re.sub(r"<think>.*?</think>", "", full_text, flags=re.DOTALL)
                full_text = re.sub(r"<thinking>.*?</thinking>", "", full_text, flags=re.DOTALL)
                full_text = re.sub(r"^.*?</think>", "", full_text, flags=re.DOTALL)
                full_text = re.sub(r"^.*?</thinking>", "", full_text, flags=re.DOTALL)
            return full_text.strip()
    return ""
OPS["strip_thinking"] = _strip_thinking_traces
OPS["extract_text"] = _extract_text_from_response
`);
});
afterAll(() => oracle?.stop());

/** Tags, their near misses, and the whitespace the two languages disagree on (BOM, U+0085, U+001C, U+2028). */
const PIECES = ["<think>", "</think>", "<thinking>", "</thinking>", "<Think>", "</think", "a", "b c", "\n", " ", "\ufeff", "\u0085", "\u001c", "\u2028", "\u00a0", "\u{1f600}"];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 12 }).map((parts) => parts.join(""));

const part = fc.oneof(
  text.map((t) => ({ type: "output_text", text: t, annotations: [] })),
  fc.constant({ type: "refusal", refusal: "no" }),
);
const item = fc.oneof(
  fc.record({ type: fc.constant("message"), role: fc.constantFrom("assistant", "user"), content: fc.oneof(text, fc.array(part, { maxLength: 3 })) }),
  fc.constant({ type: "function_call", call_id: "c1", name: "f", arguments: "{}" }),
  fc.constant({ type: "reasoning", summary: [{ type: "summary_text", text: "<think>hm</think>" }] }),
);

describe("reading the answer text as NeMo Gym's verifiers do", () => {
  it("stripThinkingTraces = abstention's _strip_thinking_traces", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(text, { minLength: 50, maxLength: 50 }), async (inputs) => {
        const answers = await oracle.run(inputs.map((t) => ["strip_thinking", t]));
        assertSame(inputs.map((input, k) => ({ input, python: answers[k]!, ours: answerOf(() => stripThinkingTraces(input)) })));
      }),
      { numRuns: 20 },
    );
  });

  it("lastAssistantAnswer = inverse_if's and multichallenge's _extract_text_from_response, thinking excluded or not", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.array(item, { maxLength: 4 }), fc.boolean()), { minLength: 50, maxLength: 50 }), async (inputs) => {
        const answers = await oracle.run(inputs.map(([output, exclude]) => ["extract_text", output, exclude]));
        assertSame(
          inputs.map((input, k) => ({
            input,
            python: answers[k]!,
            ours: answerOf(() => lastAssistantAnswer({ output: input[0] } as unknown as Response, input[1])),
          })),
        );
      }),
      { numRuns: 20 },
    );
  });
});

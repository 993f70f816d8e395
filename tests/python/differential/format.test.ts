// Differential: template.format(**values) against CPython: the filled text, or the same ValueError/KeyError/IndexError and message.
import fc from "fast-check";
import { afterAll, beforeAll, describe, it } from "vitest";
import { PyFormatError, pyFormatKeywords } from "../../../environments/sdk/python/index.js";
import { type Answer, assertSame, Oracle } from "./oracle.js";

let oracle: Oracle;
beforeAll(async () => {
  oracle = await Oracle.start();
  await oracle.define(`OPS["format"] = lambda template, values: template.format(**values)`);
});
afterAll(() => oracle?.stop());

/** Our answer in the oracle's form: PyFormatError's message carries "ValueError: " before CPython's str(). */
function ours(template: string, values: Record<string, string>): Answer {
  try {
    return { ok: pyFormatKeywords(template, values) };
  } catch (error) {
    if (error instanceof PyFormatError) return { err: error.pythonClass, msg: error.message.slice(error.pythonClass.length + 2) };
    throw error;
  }
}

/** Template pieces: literal text, doubled and lone braces, known and unknown names, positional fields, !s, an empty spec, bad fields. */
const PIECE = fc.constantFrom(
  "text ",
  "\n",
  "é",
  "{{",
  "}}",
  "{",
  "}",
  "{a}",
  "{b}",
  "{a}",
  "{missing}",
  "{}",
  "{0}",
  "{12}",
  "{a!s}",
  "{a:}",
  "{a!s:}",
  "{ a}",
  "{a-b}",
  "{\u00e9}",
  // Malformed fields: each reaches one of parse_field's errors (or a KeyError first), never an unported feature.
  "{a!",
  "{a!x}",
  "{a!\u00e9}",
  "{a!ss}",
  "{!}",
  "{a[",
  "!",
  ":",
);
const VALUE = fc.constantFrom("x", "", "{a}", "}{", "{{", "100%", "\\n");
const BATCH = { minLength: 50, maxLength: 50 };

describe("str.format with keyword arguments", () => {
  it("fills known names, keeps doubled braces as one, and raises CPython's error for lone braces, unknown names and positional fields", async () => {
    const input = fc.tuple(
      fc.array(PIECE, { maxLength: 8 }).map((p) => p.join("")),
      fc.record({ a: VALUE, b: VALUE, "a-b": VALUE, " a": VALUE }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(input, BATCH), async (inputs) => {
        const answers = await oracle.run(inputs.map(([t, v]) => ["format", t, v]));
        assertSame(inputs.map(([t, v], k) => ({ input: [t, v], python: answers[k]!, ours: ours(t, v) })));
      }),
      { numRuns: 60 },
    );
  });
});

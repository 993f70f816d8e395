// Differential replay of a verifier: NeMo Gym's mcqa app.py (mcqa_verifier.py, run by CPython) vs our port, on rows
// generated around the known differences (BOM, U+0085, dotted/dotless i, fullwidth and Arabic letters, boxes, regexes).
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcqaEnvironment, type GradingMode } from "../../../environments/mcqa/index.js";
import type { Judge } from "../../../environments/sdk/index.js";
import { noState, perform } from "../../../environments/sdk/perform.js";
import { answerOf, assertSame, Oracle } from "./oracle.js";

let oracle: Oracle;
beforeAll(async () => {
  oracle = await Oracle.start();
  await oracle.define(readFileSync(new URL("./mcqa_verifier.py", import.meta.url), "utf8"));
});
afterAll(() => oracle?.stop());

const PIECES = [
  "\\boxed{",
  "}",
  "\\text{",
  "Answer:",
  "answer: ",
  "**Answer:** ",
  "ANSWER IS ",
  "Final Answer: ",
  "A",
  "B",
  "C",
  "D",
  "E",
  "a",
  "b",
  "c",
  " ",
  "\n",
  "\t",
  "\u0085",
  "\ufeff",
  "\u00a0",
  "\u3000",
  "\u0130",
  "\u0131",
  "i",
  "I",
  "(",
  ")",
  "[",
  "]",
  ":",
  ".",
  ",",
  " or ",
  " and ",
  "/",
  "\u0623",
  "\u0628",
  "\uff21",
  "\uff22",
  "\u0985",
  "opt A",
  "optB",
  "\u0130stanbul",
  "istanbul",
  "\u00dfeta",
  "SSeta",
  "\u03a3\u03b1",
  "*",
  "_",
  "`",
];
const NOISE = fc.array(fc.constantFrom(...PIECES), { maxLength: 6 }).map((p) => p.join(""));
/** Mostly an answer in one of the shapes the modes read (a box, "Answer:", a template's phrase) amid noise. */
const SHAPED = fc
  .tuple(
    NOISE,
    fc.constantFrom("\\boxed{", "\\boxed{\\text{", "Answer: ", "**Answer:** ", "ANSWER IS ", "answer is (", "I think ", "\\boxed{ ["),
    fc.constantFrom("A", "B", "C", "b", "c", "\u0130", "\u0131", "\uff22", "\u0628", "optB", "\u0130stanbul", "SSeta", "B: optB"),
    fc.constantFrom("}", "}}", "", ")", " ]}", "\u0085", "\ufeff"),
    NOISE,
  )
  .map((p) => p.join(""));
const TEXT = fc.oneof({ weight: 3, arbitrary: SHAPED }, { weight: 1, arbitrary: NOISE });
const OPTION_TEXTS = ["optA", "optB", "opt A", "\u0130stanbul", "istanbul", "\u00dfeta", "SSeta", " optC\u0085", "\ufeffoptD"];
const OPTIONS = fc
  .subarray(["A", "B", "C", "D", "E", "a", "\u0130"], { minLength: 0, maxLength: 5 })
  .chain((letters) => fc.tuple(...letters.map((l) => fc.constantFrom(...OPTION_TEXTS).map((t) => ({ [l]: t })))))
  .chain((options) =>
    fc.constantFrom<Record<string, string>[][]>([{ B: "optB" }], [{ B: "optB" }], []).map((b) => [...b, ...(options as Record<string, string>[])]),
  );
const REGEXES = [
  "Answer\\s*:\\s*([A-Za-z])",
  "answer is\\s*\\(?([a-e])\\)?",
  "(?:Final )?ANSWER:\\s*(\\w)",
  "\\b([A-D])\\b",
  "ANSWER IS\\s*(.+)",
  "[Ii]\\s*think\\s*([a-d])",
  "([أ-د])",
  "(\\S+)$",
];
const TEMPLATE = fc.option(fc.oneof(fc.constantFrom(...REGEXES), fc.subarray(REGEXES, { maxLength: 3 })), { nil: undefined, freq: 2 });
const ROW = fc.record({
  text: TEXT,
  options: OPTIONS,
  expected: fc.constantFrom("A", "B", "B", "b", " C ", "\ufeffB", "\u0085B", "\u0131", "I", ""),
  mode: fc.constantFrom("strict_single_letter_boxed", "lenient_boxed", "lenient_answer_colon"),
  config: fc.constantFrom(null, null, null, "lenient_answer_colon_md", "lenient_boxed") as fc.Arbitrary<GradingMode | null>,
  template: TEMPLATE,
});
type Row = typeof ROW extends fc.Arbitrary<infer T> ? T : never;

const noJudge: Judge = () => Promise.reject(new Error("mcqa calls no judge"));
const context = () => ({ sessionId: "t", state: noState, signal: new AbortController().signal, judge: noJudge });
const response = (text: string) => ({
  id: "resp",
  created_at: 0,
  model: "m",
  object: "response",
  output: [{ id: "msg", type: "message", role: "assistant", status: "completed", content: [{ annotations: [], text, type: "output_text" }] }],
  parallel_tool_calls: true,
  tool_choice: "auto",
  tools: [],
});

async function ours(row: Row): Promise<unknown> {
  const body = {
    responses_create_params: { input: [{ role: "user", content: "Q?" }] },
    response: response(row.text),
    options: row.options,
    expected_answer: row.expected,
    grading_mode: row.mode,
    ...(row.template === undefined ? {} : { template_metadata: { output_regex: row.template } }),
  };
  const outcome = await perform(mcqaEnvironment({ grading_mode: row.config }), { kind: "verify" }, body, context());
  if (outcome.status !== 200) throw new Error(`verify answered ${outcome.status}: ${JSON.stringify(outcome.body)}`);
  const { reward, expected_answer, extracted_answer } = outcome.body as Record<string, unknown>;
  return { reward, expected_answer, extracted_answer };
}

describe("mcqa: NeMo Gym's verifier in CPython and our port give the same reward, expected and extracted answer", () => {
  it("generated rows, every grading mode, template regexes under IGNORECASE", async () => {
    let rewarded = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(ROW, { minLength: 40, maxLength: 40 }), async (rows) => {
        const python = await oracle.run(
          rows.map((r) => [
            "mcqa_verify",
            {
              output_text: r.text,
              options: r.options,
              expected_answer: r.expected,
              grading_mode: r.mode,
              ...(r.template === undefined ? {} : { template_metadata: { output_regex: r.template } }),
            },
            r.config,
          ]),
        );
        const mine = await Promise.all(rows.map(ours));
        assertSame(rows.map((input, k) => ({ input, python: python[k]!, ours: answerOf(() => mine[k]) })));
        for (const answer of python) if (JSON.stringify(answer).includes('"reward",{"f":"3ff0000000000000"}')) rewarded++;
      }),
      { numRuns: 15 },
    );
    // The rows reach the rewarding paths too, not only the zeros.
    expect(rewarded).toBeGreaterThan(10);
  });
});

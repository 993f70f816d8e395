// gpqa_diamond: parity with NeMo Gym's recorded rollouts (in workerd), NeMo Gym's own tests ported, and edge cases.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import gpqa, { extractLetter } from "../../environments/gpqa_diamond/index.js";
import type { Judge } from "../../environments/sdk/index.js";
import { noState, perform } from "../../environments/sdk/perform.js";
import { fixtureRollouts } from "../helpers/fixtures.js";
import { postJson, startTestLocal } from "../helpers/local.js";

const NAME = "gpqa_diamond";
let local: Local;
beforeAll(async () => {
  local = await startTestLocal({ environments: [NAME] });
});
afterAll(async () => {
  await local?.stop();
});

/**
 * NeMo Gym's records drop the row's `options` (and its rows are not among example.jsonl's); the prompt lists them
 * as "A: text" lines, so the request is rebuilt from those, as the dataset row held them.
 */
function optionsFromPrompt(record: Record<string, unknown>): Record<string, string>[] {
  const input = (record.responses_create_params as { input: { content: string }[] }).input;
  return [...input[0]!.content.matchAll(/^([A-D]): (.*)$/gm)].map((m) => ({ [m[1]!]: m[2]! }));
}

describe("parity with NeMo Gym's recorded rollouts (workerd)", () => {
  it.each(fixtureRollouts(NAME).map((record, i) => [i, record] as const))("recorded rollout %i: same reward and fields", async (_i, record) => {
    const { reward, expected_answer, extracted_answer, _ng_task_index: _t, _ng_rollout_index: _r, ...request } = record;
    const options = optionsFromPrompt(record);
    expect(options.map((o) => Object.keys(o)[0])).toEqual(["A", "B", "C", "D"]);
    const answer = await postJson(`${local.url}/v1/environments/${NAME}/verify`, {
      ...request,
      options,
      expected_answer,
      grading_mode: "strict_single_letter_boxed",
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ reward, expected_answer, extracted_answer });
  });
});

const response = (text: string) => ({
  id: "resp_test",
  created_at: 0,
  model: "dummy",
  object: "response",
  output: [{ id: "msg", type: "message", role: "assistant", status: "completed", content: [{ annotations: [], text, type: "output_text" }] }],
  parallel_tool_calls: true,
  tool_choice: "auto",
  tools: [],
});
const OPTIONS = [{ A: "optA" }, { B: "optB" }, { C: "optC" }, { D: "optD" }];
const request = (text: string, extra: Record<string, unknown> = {}) => ({
  responses_create_params: { input: [{ role: "user", content: "Question?\nA: optA\nB: optB\nC: optC\nD: optD" }] },
  response: response(text),
  options: OPTIONS,
  expected_answer: "C",
  grading_mode: "strict_single_letter_boxed",
  ...extra,
});
const noJudge: Judge = () => Promise.reject(new Error("no judge in these tests"));
const context = () => ({ sessionId: "t", state: noState, signal: new AbortController().signal, judge: noJudge });
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function verify(body: Record<string, unknown>): Promise<any> {
  const outcome = await perform(gpqa, { kind: "verify" }, body, context());
  return outcome.status === 200 ? outcome.body : outcome;
}

describe("NeMo Gym's tests (resources_servers/gpqa_diamond/tests/test_app.py), ported", () => {
  it("test_sanity: the environment defines no tools", () => {
    expect(gpqa.name).toBe(NAME);
    expect(gpqa.tools.size).toBe(0);
  });
  it("test_verify_gpqa_diamond_template_metadata_priority: the row's regex wins over 'Answer: A'", async () => {
    const r = await verify(request("Answer: A\nFinal Choice: c", { template_metadata: { output_regex: String.raw`Final Choice:\s*([A-Za-z])` } }));
    expect([r.reward, r.extracted_answer]).toEqual([1.0, "C"]);
  });
  it("test_verify_gpqa_diamond_format: 'Answer: C' and \\boxed{C} both read C", async () => {
    expect(await verify(request("Reasoning...\nAnswer: C"))).toMatchObject({ reward: 1.0, extracted_answer: "C" });
    expect(await verify(request("Final: \\boxed{C}"))).toMatchObject({ reward: 1.0, extracted_answer: "C" });
  });
  it("test_verify_gpqa_diamond_rejects_invalid_letter: a letter outside the options is no answer", async () => {
    expect(await verify(request("Answer: E"))).toMatchObject({ reward: 0.0, extracted_answer: null });
  });
});

describe("new cases", () => {
  it("the last box wins, and a box's last standalone capital is read when it is not a bare letter", () => {
    expect(extractLetter("\\boxed{A} then \\boxed{ B }")).toBe("B");
    expect(extractLetter("\\boxed{Option (D) is right}")).toBe("D");
    // A box without a standalone capital falls through to the "Answer:" line.
    expect(extractLetter("\\boxed{none}\n**Answer:** c")).toBe("C");
  });
  it("'Answer:' is case-insensitive, markdown-tolerant, and needs the letter to stand alone", () => {
    expect(extractLetter("__answer__: b")).toBe("B");
    expect(extractLetter("Answer: Because")).toBeNull();
    expect(extractLetter("Answer: A\nanswer: d")).toBe("D");
  });
  it("an empty answer scores 0 with no letter; expected_answer is stripped and upper-cased", async () => {
    expect(await verify(request("", { expected_answer: " c " }))).toMatchObject({ reward: 0.0, extracted_answer: null, expected_answer: "C" });
    expect(await verify(request("Answer: C", { expected_answer: " c " }))).toMatchObject({ reward: 1.0, expected_answer: "C" });
  });
  it("unicode: a lone non-Latin capital in a box is taken as Python takes it, then dropped for not being an option", async () => {
    expect(extractLetter("\\boxed{É}")).toBe("É");
    expect(await verify(request("\\boxed{É}"))).toMatchObject({ reward: 0.0, extracted_answer: null });
    // Without options every letter is allowed.
    expect(await verify(request("\\boxed{c}\nAnswer: c", { options: null }))).toMatchObject({ reward: 1.0, extracted_answer: "C" });
  });
  it("bad input is refused with the field's path", async () => {
    const answer = await postJson(`${local.url}/v1/environments/${NAME}/verify`, request("Answer: C", { options: "ABCD" }));
    expect(answer.status).toBe(400);
    expect(answer.body.error.issues).toEqual([{ path: ["options"], message: "Invalid input: expected array, received string" }]);
  });
});

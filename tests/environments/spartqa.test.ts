// spartqa: parity with NeMo Gym's recorded rollouts (in workerd), NeMo Gym's own tests ported, Python-differential cases.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import spartqa from "../../environments/spartqa/index.js";
import { BOTH_LABEL, candidateLabels, extractAnswer, labelKey, matchLabel, NONE_LABEL, normalize, stripReasoning } from "../../environments/spartqa/answer.js";
import type { Judge } from "../../environments/sdk/index.js";
import { noState, perform } from "../../environments/sdk/perform.js";
import { fixtureRollouts } from "../helpers/fixtures.js";
import { postJson, startTestLocal } from "../helpers/local.js";

const NAME = "spartqa";
let local: Local;
beforeAll(async () => {
  local = await startTestLocal({ environments: [NAME] });
});
afterAll(async () => {
  await local?.stop();
});

const VERDICT = ["reward", "exact", "parsed", "extracted", "predicted_label", "_ng_task_index", "_ng_rollout_index"];

describe("parity with NeMo Gym's recorded rollouts (workerd)", () => {
  it.each(fixtureRollouts(NAME).map((record, i) => [i, record] as const))("recorded rollout %i: same reward and fields", async (_i, record) => {
    const request = Object.fromEntries(Object.entries(record).filter(([k]) => !VERDICT.includes(k)));
    const answer = await postJson(`${local.url}/v1/environments/${NAME}/verify`, request);
    expect(answer.status).toBe(200);
    for (const key of VERDICT.slice(0, 5)) expect(answer.body[key], key).toEqual(record[key]);
  });
});

const response = (text: string) => ({
  id: "r",
  created_at: 0,
  model: "m",
  object: "response",
  output: [{ id: "msg", type: "message", role: "assistant", status: "completed", content: [{ annotations: [], text, type: "output_text" }] }],
  parallel_tool_calls: false,
  tool_choice: "none",
  tools: [],
});
const noJudge: Judge = () => Promise.reject(new Error("no judge in these tests"));
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function verify(text: string, extra: Record<string, unknown> = {}): Promise<any> {
  const body = { responses_create_params: { input: [] }, response: response(text), ...extra };
  const outcome = await perform(spartqa, { kind: "verify" }, body, { sessionId: "t", state: noState, signal: new AbortController().signal, judge: noJudge });
  return outcome.status === 200 ? outcome.body : outcome;
}
const OPTIONS = ["a big blue square", "a small blue square"];

describe("NeMo Gym's tests (resources_servers/spartqa/tests/test_app.py), ported", () => {
  it("TestExtractAnswer, TestStripReasoning, TestNormalize", () => {
    expect(extractAnswer("Reasoning here.\nFinal answer: below the circle")).toBe("below the circle");
    expect(extractAnswer("<think>the star is north</think>Final answer: yes")).toBe("yes");
    expect(extractAnswer("Thinking process: I consider the layout\ngreen cup")).toBe("green cup");
    const echo =
      "To answer I must end with 'Final answer: <candidate answer>'.\nWorking through the layout, the yellow circle is below.\nFinal answer: a big yellow circle that is touching the bottom edge of a block";
    expect(extractAnswer(echo)).toBe("a big yellow circle that is touching the bottom edge of a block");
    expect(extractAnswer("Final answer: a small blue shape\nOn reflection:\nFinal answer: both of them")).toBe("both of them");
    expect(extractAnswer("   ")).toBe("");
    expect(stripReasoning("<think>hidden</think>visible")).toBe("visible");
    expect(stripReasoning("plain")).toBe("plain");
    expect(normalize("  The  Big, BLACK Square!! ")).toBe("the big black square");
    expect(normalize("")).toBe("");
  });
  it("TestVerify: verbatim, in a sentence, wrong, both, none, articles", async () => {
    expect(await verify("Final answer: a big blue square", { target: OPTIONS[0], options: OPTIONS })).toMatchObject({
      reward: 1,
      exact: true,
      parsed: true,
      extracted: "a big blue square",
      predicted_label: OPTIONS[0],
    });
    expect(await verify("Final answer: it must be a big blue square.", { target: OPTIONS[0], options: OPTIONS })).toMatchObject({
      reward: 1,
      exact: false,
      predicted_label: OPTIONS[0],
    });
    expect(await verify("Final answer: a small blue square", { target: OPTIONS[0], options: OPTIONS })).toMatchObject({
      reward: 0,
      predicted_label: OPTIONS[1],
    });
    expect(await verify(`Final answer: ${BOTH_LABEL}`, { target: BOTH_LABEL, options: OPTIONS })).toMatchObject({ reward: 1, exact: true });
    expect(await verify(`Final answer: ${NONE_LABEL}`, { target: NONE_LABEL, options: OPTIONS })).toMatchObject({ reward: 1 });
    expect(await verify("Final answer: the big blue square", { target: "a big blue square", options: OPTIONS })).toMatchObject({ reward: 1, exact: true });
  });
  it("TestVerify: aliases, single option vs both, echoed options, nested options", async () => {
    for (const [alias, gold] of [
      ["Both", BOTH_LABEL],
      ["Neither", NONE_LABEL],
      ["DK", NONE_LABEL],
    ] as const) {
      expect(await verify(`Final answer: ${alias}`, { target: gold, options: OPTIONS }), alias).toMatchObject({ reward: 1, exact: false });
    }
    for (const option of OPTIONS) expect((await verify(`Final answer: ${option}`, { target: BOTH_LABEL, options: OPTIONS })).reward).toBe(0);
    for (const gold of [OPTIONS[0], OPTIONS[1], BOTH_LABEL]) {
      expect(await verify(`Final answer: ${OPTIONS[0]} or ${OPTIONS[1]}`, { target: gold, options: OPTIONS })).toMatchObject({
        reward: 0,
        predicted_label: "",
      });
    }
    const nested = ["a triangle that is in block B", "a big blue triangle that is in block B"];
    expect(await verify("Final answer: a big blue triangle that is in block B", { target: nested[1], options: nested })).toMatchObject({
      reward: 1,
      predicted_label: nested[1],
    });
  });
  it("TestVerify: empty output, empty target, verifier_metadata fallback, target-only", async () => {
    expect(await verify("   ", { target: OPTIONS[0], options: OPTIONS })).toMatchObject({ reward: 0, parsed: false, predicted_label: "" });
    expect((await verify("Final answer: yes", { target: "", options: [] })).reward).toBe(0);
    expect((await verify(`Final answer: ${BOTH_LABEL}`, { target: "", options: [], verifier_metadata: { target: BOTH_LABEL, options: OPTIONS } })).reward).toBe(
      1,
    );
    expect((await verify("Final answer: a big blue square", { target: OPTIONS[0] })).reward).toBe(1);
  });
  it("TestLabels", () => {
    expect(candidateLabels(OPTIONS)).toEqual([...OPTIONS, BOTH_LABEL, NONE_LABEL]);
    expect(candidateLabels([BOTH_LABEL])).toEqual([BOTH_LABEL, NONE_LABEL]);
    expect(labelKey("  The Big, BLUE Square! ")).toBe("big blue square");
    expect(labelKey("")).toBe("");
    expect(matchLabel("a green cup", candidateLabels(OPTIONS))).toBeNull();
    expect(matchLabel("", candidateLabels(OPTIONS))).toBeNull();
  });
  it("TestComputeMetrics", () => {
    const metrics = spartqa.computeMetrics!([
      [{ reward: 1.0, exact: true, parsed: true, target: BOTH_LABEL, predicted_label: BOTH_LABEL }],
      [{ reward: 0.0, exact: false, parsed: true, target: BOTH_LABEL, predicted_label: OPTIONS[0] }],
      [{ reward: 1.0, exact: false, parsed: true, target: OPTIONS[0], predicted_label: OPTIONS[0] }],
      [{ reward: 0.0, exact: false, parsed: false, target: NONE_LABEL, predicted_label: "" }],
    ]);
    expect(metrics).toEqual({
      mean_reward: 0.5,
      count: 4,
      exact_match_rate: 0.25,
      parse_rate: 0.75,
      label_resolve_rate: 0.75,
      accuracy_both_of_them: 0.5,
      accuracy_none_of_them: 0.0,
    });
    expect(spartqa.computeMetrics!([])).toEqual({});
  });
});

/** Outputs of NeMo Gym's own _extract_answer and match_label (app.py at 07d6b0d, run in CPython 3) on these texts. */
const PYTHON_CASES: { text: string; extracted: string; label: string | null }[] = [
  { text: "Reasoning.\nFinal answer: below the circle", extracted: "below the circle", label: null },
  { text: "<think>Final answer: no</think>\n**Final Answer:** Both of them.", extracted: "Both of them.", label: "both of them" },
  { text: "<THINK>x</think>answer is the big square", extracted: "the big square", label: null },
  { text: "<|channel>thought blah <channel|>Final answer: none", extracted: "none", label: "none of them" },
  { text: "Thinking Process:\n1. look\nneither", extracted: "neither", label: "none of them" },
  { text: "Final answer: <candidate answer>\nFinal answer: a big blue square", extracted: "a big blue square", label: "a big blue square" },
  { text: "- * • `the big blue square`", extracted: "the big blue square", label: "a big blue square" },
  { text: "The answer would be: the small red circle.", extracted: "the small red circle.", label: "the small red circle" },
  { text: "Selected option is both", extracted: "both", label: "both of them" },
  { text: "Final answer:\n\nnone of them", extracted: "none of them", label: "none of them" },
  { text: "Final answer: ", extracted: "", label: null },
  { text: "answer - DK", extracted: "DK", label: "none of them" },
  { text: "Final answer: a big blue square or a small red circle", extracted: "a big blue square or a small red circle", label: null },
  { text: "We need to think.\nFinal line", extracted: "Final line", label: null },
  { text: "Final answer: Ⅻ café — naïve", extracted: "Ⅻ café — naïve", label: null },
  { text: "Final answer: the big blue square trailing", extracted: "the big blue square", label: "a big blue square" },
  { text: "final answer: both", extracted: "both", label: "both of them" },
  { text: "   ", extracted: "", label: null },
  { text: "", extracted: "", label: null },
  { text: "ANSWER: **A big blue square**", extracted: "A big blue square", label: "a big blue square" },
  { text: "Answer: </think>both of these", extracted: "both of these", label: "both of them" },
  { text: "Final answer - the small red circle\r\nmore", extracted: "the small red circle", label: "the small red circle" },
];

describe("new cases: differential against CPython", () => {
  const labels = candidateLabels(["a big blue square", "the small red circle"]);
  it.each(PYTHON_CASES.map((c) => [JSON.stringify(c.text).slice(0, 50), c] as const))("%s", (_name, c) => {
    const extracted = extractAnswer(c.text);
    expect(extracted).toBe(c.extracted);
    expect(matchLabel(extracted, labels)).toBe(c.label);
  });
  it("extracted is cut at 200 characters, counted in code points", async () => {
    const r = await verify(`Final answer: ${"😀".repeat(250)}`, { target: OPTIONS[0], options: OPTIONS });
    expect(Array.from(r.extracted as string)).toHaveLength(200);
    expect(r).toMatchObject({ reward: 0, parsed: true, predicted_label: "" });
  });
  it("bad input: options must be a list of strings (400 with the path)", async () => {
    const answer = await postJson(`${local.url}/v1/environments/${NAME}/verify`, {
      responses_create_params: { input: [] },
      response: response("x"),
      options: [1],
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.issues.map((i: { path: unknown }) => i.path)).toEqual([["options", 0]]);
  });
});

// hotpotqa_qa: parity with NeMo Gym's recorded rollouts (in workerd), NeMo Gym's own tests ported, and edge cases.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import hotpotqa from "../../environments/hotpotqa_qa/index.js";
import { gtAlternatives, isCorrect, isCorrectStrict, shouldRemove } from "../../environments/hotpotqa_qa/alternatives.js";
import { answerExactMatch, answerF1Score, normalizeAnswer, parseGeneration } from "../../environments/hotpotqa_qa/scoring.js";
import type { Judge } from "../../environments/sdk/index.js";
import { noState, perform } from "../../environments/sdk/perform.js";
import { fixtureRollouts } from "../helpers/fixtures.js";
import { postJson, startTestLocal } from "../helpers/local.js";

const NAME = "hotpotqa_qa";
let local: Local;
beforeAll(async () => {
  local = await startTestLocal({ environments: [NAME] });
});
afterAll(async () => {
  await local?.stop();
});

const VERDICT = ["reward", "extracted_answer", "answer_em", "answer_f1", "is_correct", "is_correct_strict", "gt_should_remove", "gt_remove_reason"];

describe("parity with NeMo Gym's recorded rollouts (workerd)", () => {
  it.each(fixtureRollouts(NAME).map((record, i) => [i, record] as const))("recorded rollout %i: same reward and fields", async (_i, record) => {
    const request = Object.fromEntries(Object.entries(record).filter(([k]) => !VERDICT.includes(k)));
    const answer = await postJson(`${local.url}/v1/environments/${NAME}/verify`, request);
    expect(answer.status).toBe(200);
    for (const key of VERDICT) expect(answer.body[key], key).toEqual(record[key]);
  });
});

const response = (...texts: string[]) => ({
  id: "test",
  created_at: 0,
  model: "test_model",
  object: "response",
  output: texts.map((text) => ({
    id: "msg",
    type: "message",
    role: "assistant",
    status: "completed",
    content: [{ annotations: [], text, type: "output_text" }],
  })),
  parallel_tool_calls: false,
  tool_choice: "none",
  tools: [],
});
const noJudge: Judge = () => Promise.reject(new Error("no judge in these tests"));
const context = () => ({ sessionId: "t", state: noState, signal: new AbortController().signal, judge: noJudge });
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function verify(texts: string[], expected_answer: string): Promise<any> {
  const outcome = await perform(
    hotpotqa,
    { kind: "verify" },
    { responses_create_params: { input: [] }, response: response(...texts), expected_answer },
    context(),
  );
  return outcome.status === 200 ? outcome.body : outcome;
}

describe("NeMo Gym's tests (resources_servers/hotpotqa_qa/tests/test_app.py), ported", () => {
  it("TestNormalizeAnswer", () => {
    expect(normalizeAnswer("Paris")).toBe("paris");
    expect(normalizeAnswer("the Eiffel Tower")).toBe("eiffel tower");
    expect(normalizeAnswer("foo   bar")).toBe("foo bar");
    expect(normalizeAnswer("Hello, world!")).toBe("hello world");
    expect(normalizeAnswer("  The   QUICK,   brown FOX!! ")).toBe("quick brown fox");
  });
  it("TestAnswerExactMatch", () => {
    expect(answerExactMatch("Paris", "Paris")).toBe(1.0);
    expect(answerExactMatch("the paris", "Paris")).toBe(1.0);
    expect(answerExactMatch("London", "Paris")).toBe(0.0);
    expect(answerExactMatch("Paris is the capital", "Paris")).toBe(0.0);
  });
  it("TestAnswerF1Score", () => {
    expect(answerF1Score("Paris", "Paris")).toEqual([1.0, 1.0, 1.0]);
    expect(answerF1Score("the cat sat", "cat dog")).toEqual([0.5, 0.5, 0.5]);
    expect(answerF1Score("foo", "bar")).toEqual([0, 0, 0]);
    expect(answerF1Score("yes", "no")).toEqual([0, 0, 0]);
    expect(answerF1Score("yes", "yes")).toEqual([1, 1, 1]);
    expect(answerF1Score("yes", "yes definitely")[0]).toBe(0.0);
    expect(answerF1Score("yes definitely", "yes")[0]).toBe(0.0);
    expect(answerF1Score("alpha beta", "gamma delta")).toEqual([0, 0, 0]);
  });
  it("TestParseGeneration (the answer; supporting facts are not used by the verifier)", () => {
    expect(parseGeneration('{"answer": "Paris"}')).toBe("Paris");
    expect(parseGeneration('{"answer": "Paris", "supporting_facts": [["Title", 0]]}')).toBe("Paris");
    expect(parseGeneration('{"answer": "x", "supporting_facts": [["t", "bad"], ["t2", 1]]}')).toBe("x");
    expect(parseGeneration('{"answer": "x", "supporting_facts": "not a list"}')).toBe("x");
    expect(parseGeneration('{"random": "json"} no_answer_object')).toBe('{"random": "json"} no_answer_object');
    expect(parseGeneration('{not valid json} {"answer": "good"}')).toBe("good");
    expect(parseGeneration('Some reasoning.\n```json\n{"answer": "Paris"}\n```')).toBe("Paris");
    expect(parseGeneration('First thought: {"answer": "Wrong"}\nFinal: {"answer": "Right"}')).toBe("Right");
    expect(parseGeneration('{"unrelated": "x"} {"answer": "Final"}')).toBe("Final");
    expect(parseGeneration("just text no json")).toBe("just text no json");
    expect(parseGeneration("")).toBe("");
    expect(parseGeneration('{"answer": 42}')).toBe("42");
  });
  it("TestNormalizeGt", () => {
    const has = (gt: string, ...alts: string[]) => {
      for (const alt of alts) expect(gtAlternatives(gt), `${gt} → ${alt}`).toContain(alt);
    };
    has("Paris", "Paris");
    has("the Eiffel Tower", "Eiffel Tower", "the Eiffel Tower");
    has("five", "5", "five");
    has("Apple (fruit)", "Apple", "fruit");
    has("AT & T", "AT and T");
    has('"foo bar"', "foo bar");
    has("1,000", "1000");
    has("Paris.", "Paris");
    has("U.S.A.", "USA");
    has("multi-word", "multi word");
    has("Hall and Oates", "Hall & Oates");
    has("5", "five");
    has("\u201chello\u201d", "hello");
    has("Apple (the fruit)", "fruit");
    expect(shouldRemove("Paris")).toEqual([false, ""]);
    expect(shouldRemove("x".repeat(50))).toEqual([true, "gt_too_long"]);
    expect(shouldRemove("John Doe Smith")).toEqual([true, "multi_word_name"]);
    expect(shouldRemove("yes")).toEqual([false, ""]);
    expect(shouldRemove("New York")).toEqual([false, ""]);
    expect(shouldRemove("Just a normal Sentence here please")).toEqual([false, ""]);
    expect(shouldRemove("John Mary Paul David Smith Jones")).toEqual([true, "multi_word_name"]);
    expect(shouldRemove("a b c d e f g")).toEqual([false, ""]);
  });
  it("TestIsCorrect and TestIsCorrectStrict", () => {
    expect(isCorrect(["Paris"], "The capital of France is Paris.")).toBe(true);
    expect(isCorrect(gtAlternatives("five"), "There are 5 apples on the table.")).toBe(true);
    expect(isCorrect(["Berlin"], "The capital of France is Paris.")).toBe(false);
    expect(isCorrect(["it's"], "it\u2019s a test")).toBe(true);
    expect([isCorrectStrict(["5"], "5"), isCorrectStrict(["5"], "5x"), isCorrectStrict(["5"], "the 5 boys")]).toEqual([true, false, true]);
    expect(isCorrectStrict(["Paris"], `${"x".repeat(50)} Paris ${"y".repeat(50)}`)).toBe(false);
    expect(isCorrectStrict(["Paris"], `Paris ${"y".repeat(100)}`)).toBe(true);
    expect(isCorrectStrict(["Paris"], "I think Paris is correct")).toBe(true);
    expect(isCorrectStrict(["Berlin"], "Paris")).toBe(false);
    expect(isCorrectStrict(["", "Paris"], "Paris")).toBe(true);
  });
  it("TestVerify", async () => {
    expect(await verify(['{"answer": "Paris"}'], "Paris")).toMatchObject({
      reward: 1,
      answer_em: 1,
      answer_f1: 1,
      is_correct: 1,
      is_correct_strict: 1,
      extracted_answer: "Paris",
    });
    const sub = await verify(['{"answer": "The capital is Paris"}'], "Paris");
    expect(sub).toMatchObject({ answer_em: 0, is_correct: 1, is_correct_strict: 1, reward: 1 });
    expect(sub.answer_f1).toBeGreaterThan(0);
    expect(await verify(['{"answer": "London"}'], "Paris")).toMatchObject({ reward: 0, answer_em: 0, answer_f1: 0, is_correct: 0, is_correct_strict: 0 });
    expect(await verify(["Paris"], "Paris")).toMatchObject({ answer_em: 1, extracted_answer: "Paris" });
    expect(await verify([], "Paris")).toMatchObject({ reward: 0, extracted_answer: null });
    expect(await verify(['{"answer": "anything"}'], "John Doe Smith")).toMatchObject({ gt_should_remove: true, gt_remove_reason: "multi_word_name" });
    expect(await verify(['{"answer": "5"}'], "five")).toMatchObject({ is_correct: 1 });
  });
  it("TestComputeMetricsFilteredAndUnfiltered.test_filtered_excludes_unreliable_gt", () => {
    const record = (extracted_answer: string, score: number, gt_should_remove: boolean) => ({
      extracted_answer,
      answer_em: score,
      answer_f1: score,
      is_correct: score,
      is_correct_strict: score,
      gt_should_remove,
      reward: score,
    });
    const metrics = hotpotqa.computeMetrics!([[record("Paris", 1, false)], [record("someone else", 0, true)]]) as Record<string, unknown>;
    expect(metrics.unfiltered_num_tasks).toBe(2);
    expect(metrics.filtered_num_tasks).toBe(1);
    expect(metrics["pass@1[avg-of-1]/is_correct_strict"]).toBe(50);
    expect(metrics["filtered_pass@1[avg-of-1]/is_correct_strict"]).toBe(100);
    expect(metrics.filtered_per_sample_aggregate).toBeUndefined();
  });
});

describe("new cases", () => {
  it("str() of a non-string answer is Python's: floats, booleans, None, lists and dicts", () => {
    expect(parseGeneration('{"answer": 5.0}')).toBe("5.0");
    expect(parseGeneration('{"answer": 1e16}')).toBe("1e+16");
    expect(parseGeneration('{"answer": true}')).toBe("True");
    expect(parseGeneration('{"answer": null}')).toBe("None");
    expect(parseGeneration(`{"answer": ["it's", 2, {"a": "b"}]}`)).toBe(`["it's", 2, {'a': 'b'}]`);
    // A repeated key takes the last value, as Python's dict does.
    expect(parseGeneration('{"answer": "first", "answer": "last"}')).toBe("last");
  });
  it("an answer that is an empty string extracts nothing and scores 0", async () => {
    expect(await verify(['{"answer": ""}'], "Paris")).toMatchObject({ reward: 0, extracted_answer: null, answer_em: 0 });
  });
  it("a JSON object split over two output messages is joined before parsing", async () => {
    expect(await verify(['{"answer": "Pa', 'ris"}'], "Paris")).toMatchObject({ reward: 1, extracted_answer: "Paris" });
  });
  it("unicode: NBSP and curly quotes are normalised; lengths count code points", async () => {
    expect(await verify(['{"answer": "Caf\u00e9\u00a0de\u00a0Flore"}'], "Café de Flore")).toMatchObject({ is_correct_strict: 1 });
    // 40 astral characters are 40 Python characters (80 UTF-16 units): not too long.
    expect(shouldRemove("😀".repeat(40))).toEqual([false, ""]);
    expect(shouldRemove("😀".repeat(41))).toEqual([true, "gt_too_long"]);
  });
  it("supporting_facts holding Infinity fails the verify, as int(inf) raises OverflowError in NeMo Gym", async () => {
    const outcome = await verify(['{"answer": "x", "supporting_facts": [["t", Infinity]]}'], "x");
    expect(outcome.status).toBe(500);
  });
  it("bad input: expected_answer must be a string (400 with the path)", async () => {
    const answer = await postJson(`${local.url}/v1/environments/${NAME}/verify`, {
      responses_create_params: { input: [] },
      response: response("x"),
      expected_answer: 5,
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.issues.map((i: { path: unknown }) => i.path)).toEqual([["expected_answer"]]);
  });
});

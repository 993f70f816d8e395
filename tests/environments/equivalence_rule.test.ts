// equivalence_rule: recorded rollouts re-verified in workerd, NeMo Gym's tests/test_app.py ported, edge cases.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import environment, { equivalenceRuleEnvironment } from "../../environments/equivalence_rule/index.js";
import { grade, gradeExact, gradeSeqMatch, gradeWeightedSeqMatch, normalize, sequenceRatio } from "../../environments/equivalence_rule/grade.js";
import type { Judge, SimpleEnvironment } from "../../environments/sdk/index.js";
import { noState, perform } from "../../environments/sdk/perform.js";
import { fixtureRollouts } from "../helpers/fixtures.js";
import { postJson, startTestLocal } from "../helpers/local.js";

const NAME = "equivalence_rule";
let local: Local;
beforeAll(async () => {
  local = await startTestLocal({ environments: [NAME] });
});
afterAll(async () => {
  await local?.stop();
});

describe("parity with NeMo Gym's recorded rollouts (workerd)", () => {
  it.each(fixtureRollouts(NAME).map((record, i) => [i, record] as const))("recorded rollout %i: same reward and equivalence_score", async (_i, record) => {
    const { reward, equivalence_score, ...request } = record;
    const answer = await postJson(`${local.url}/v1/environments/${NAME}/verify`, request);
    expect(answer.status).toBe(200);
    expect(answer.body.reward).toBe(reward);
    expect(answer.body.equivalence_score).toBe(equivalence_score);
    expect(answer.body.expected_answer).toBe(record.expected_answer);
    expect(answer.body.hashid).toBe(record.hashid);
  });

  it("the recordings hold both rewards, and one rollout with no message at all", () => {
    const records = fixtureRollouts(NAME);
    expect(records.map((r) => r.reward)).toEqual([1.0, 0.0, 0.0, 0.0, 0.0]);
    expect((records[2]!.response as { output: { type: string }[] }).output.some((o) => o.type === "message")).toBe(false);
  });

  it("a body without expected_answer is a 400 naming the field", async () => {
    const { expected_answer: _e, reward: _r, equivalence_score: _s, ...request } = fixtureRollouts(NAME)[0]!;
    const answer = await postJson(`${local.url}/v1/environments/${NAME}/verify`, request);
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toContain("expected_answer");
  });

  it("an expected_answer that is not a string is a 400 naming the field", async () => {
    const { reward: _r, equivalence_score: _s, ...request } = fixtureRollouts(NAME)[3]!;
    const answer = await postJson(`${local.url}/v1/environments/${NAME}/verify`, { ...request, expected_answer: 6 });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toContain("expected_answer");
  });
});

/** CPython 3's difflib on the recorded rollouts' texts under the other two rules (seq_match, weighted_seq_match). */
const OTHER_RULES = [
  [1.0, 1.0],
  [0.9892241379310345, 0.9908405172413793],
  [0.0, 0.0],
  [0.0, 0.0],
  [0.0, 0.0],
] as const;

const noJudge: Judge = () => Promise.reject(new Error("no judge in these tests"));
const context = () => ({ sessionId: "t", state: noState, signal: new AbortController().signal, judge: noJudge });

async function verify(body: Record<string, unknown>, env: SimpleEnvironment = environment): Promise<Record<string, unknown>> {
  const outcome = await perform(env, { kind: "verify" }, body, context());
  expect(outcome.status).toBe(200);
  return outcome.body as Record<string, unknown>;
}

describe("the other grading rules on the recorded rollouts (values from CPython's difflib)", () => {
  it.each(fixtureRollouts(NAME).map((record, i) => [i, record] as const))("recorded rollout %i", async (i, record) => {
    const { reward: _r, equivalence_score: _s, ...request } = record;
    const [seq, weighted] = OTHER_RULES[i]!;
    expect((await verify(request, equivalenceRuleEnvironment("seq_match", "eq_seq"))).reward).toBe(seq);
    expect((await verify(request, equivalenceRuleEnvironment("weighted_seq_match", "eq_weighted"))).equivalence_score).toBe(weighted);
  });
});

const response = (...output: unknown[]) => ({
  id: "test",
  created_at: 0.0,
  model: "test_model",
  object: "response",
  output,
  parallel_tool_calls: false,
  tool_choice: "none",
  tools: [],
});
const message = (...texts: string[]) => ({
  id: "msg",
  type: "message",
  role: "assistant",
  status: "completed",
  content: texts.map((text) => ({ annotations: [], text, type: "output_text" })),
});
const body = (text: string | null, expected_answer: string) => ({
  responses_create_params: { input: [] },
  response: text === null ? response() : response(message(text)),
  expected_answer,
});

describe("NeMo Gym's tests/test_app.py, ported", () => {
  it("TestNormalize: strips, lower-cases, collapses internal whitespace", () => {
    expect(normalize("  hello  ")).toBe("hello");
    expect(normalize("Hello World")).toBe("hello world");
    expect(normalize("foo   bar")).toBe("foo bar");
    expect(normalize("  Hello   WORLD  ")).toBe("hello world");
  });

  it("TestGradeExact", () => {
    expect(gradeExact("Paris", "Paris")).toBe(1.0);
    expect(gradeExact("paris", "Paris")).toBe(1.0);
    expect(gradeExact("  Paris  ", "Paris")).toBe(1.0);
    expect(gradeExact("London", "Paris")).toBe(0.0);
    expect(gradeExact("", "")).toBe(1.0);
    expect(gradeExact("Par", "Paris")).toBe(0.0);
  });

  it("TestGradeSeqMatch (bounds as NeMo Gym asserts them, values as CPython computes them)", () => {
    expect(gradeSeqMatch("hello", "hello")).toBe(1.0);
    expect(gradeSeqMatch("abc", "xyz")).toBe(0.0);
    expect(gradeSeqMatch("hello world", "hello")).toBe(0.625);
    expect(gradeSeqMatch("Hello", "hello")).toBe(1.0);
    expect(gradeSeqMatch("foo bar", "foo baz")).toBe(0.8571428571428571);
  });

  it("TestGradeWeightedSeqMatch", () => {
    expect(gradeWeightedSeqMatch("hello", "hello")).toBe(1.0);
    expect(gradeWeightedSeqMatch("some text", "other text")).toBe(0.7368421052631579);
    const [answer, reply] = ["abcdefghij tail", "abcdefghij diff"];
    expect(gradeWeightedSeqMatch(reply, answer)).toBe(0.8300000000000001);
    expect(gradeSeqMatch(reply, answer)).toBe(0.8);
    expect(gradeWeightedSeqMatch("xyz", "abc")).toBe(0.0);
  });

  it("TestGradeDispatcher", () => {
    expect(grade("Paris", "Paris", "exact")).toBe(1.0);
    expect(grade("hello", "hello", "seq_match")).toBe(1.0);
    expect(grade("hello", "hello", "weighted_seq_match")).toBe(1.0);
  });

  it("TestVerify: exact match, mismatch, case, seq_match partial, weighted identical, fields, empty response", async () => {
    expect(await verify(body("Paris", "Paris"))).toMatchObject({ reward: 1.0, equivalence_score: 1.0 });
    expect(await verify(body("London", "Paris"))).toMatchObject({ reward: 0.0, equivalence_score: 0.0 });
    expect((await verify(body("paris", "Paris"))).reward).toBe(1.0);
    const partial = await verify(body("hello world", "hello"), equivalenceRuleEnvironment("seq_match", "eq_seq"));
    expect(partial.reward).toBe(0.625);
    expect((await verify(body("the answer", "the answer"), equivalenceRuleEnvironment("weighted_seq_match", "eq_w"))).reward).toBe(1.0);
    const fields = await verify(body("test", "test"));
    expect(Object.keys(fields)).toEqual(expect.arrayContaining(["reward", "equivalence_score", "expected_answer"]));
    expect((await verify(body(null, "Paris"))).reward).toBe(0.0);
  });

  it("TestServerInstantiation: the default export grades exactly", async () => {
    expect(environment.name).toBe(NAME);
    expect((await verify(body("Pari", "Paris"))).reward).toBe(0.0);
  });
});

describe("edge cases (expected values from CPython 3)", () => {
  it("every output_text of every message is joined with nothing between; other items are ignored", async () => {
    const joined = { ...body(null, "Paris"), response: response({ type: "reasoning", id: "r", summary: [] }, message("Pa", "r"), message("is")) };
    expect((await verify(joined)).reward).toBe(1.0);
  });

  it("an empty answer matches only an empty (or all-whitespace) response", async () => {
    expect((await verify(body(" \n\t", ""))).reward).toBe(1.0);
    expect((await verify(body("x", ""))).reward).toBe(0.0);
    expect(gradeSeqMatch("", "Paris")).toBe(0.0);
    expect(gradeSeqMatch("", "")).toBe(1.0);
  });

  it("Python's whitespace and case rules: U+001C/U+001F strip, U+3000 collapses, İ lowers to i̇", () => {
    expect(gradeExact("\x1cParis\x1f", "paris")).toBe(1.0);
    expect(gradeExact("İstanbul", "i\u0307stanbul")).toBe(1.0);
    expect(normalize("a\u3000\u2028 b")).toBe("a b");
    expect(normalize("a\u200bb")).toBe("a\u200bb");
  });

  it("unicode beyond the BMP counts one per code point, as Python's str does", () => {
    expect(gradeSeqMatch("Ünïcödé 😀 tëxt\u3000here", "ünïcödé 😀 text here")).toBe(0.9473684210526315);
    expect(gradeWeightedSeqMatch("Ünïcödé 😀 tëxt\u3000here", "ünïcödé 😀 text here")).toBe(0.9552631578947368);
    expect(sequenceRatio("😀a", "😀b")).toBe(0.5);
  });

  it("autojunk: in a b of 200+ characters the popular ones never start a match", () => {
    const a = "the quick brown fox jumps over the lazy dog; ".repeat(6);
    const b = "a quick brown cat leaps over one lazy dog!! ".repeat(7);
    expect(gradeSeqMatch(a, b)).toBe(0.0);
    expect(gradeSeqMatch(b, a)).toBe(0.0);
    expect(gradeWeightedSeqMatch(a, b)).toBe(0.105);
    expect(gradeSeqMatch("x".repeat(150) + "y".repeat(150), "y".repeat(150) + "x".repeat(150))).toBe(0.0);
    expect(sequenceRatio("x".repeat(100), "x".repeat(100))).toBe(1.0);
  });
});

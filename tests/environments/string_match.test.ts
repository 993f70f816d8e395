// string_match: parity with NeMo Gym's recorded rollouts (in workerd), NeMo Gym's own tests ported, and edge cases.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import stringMatch from "../../environments/string_match/index.js";
import { extractAnswer } from "../../environments/string_match/extract.js";
import { answersMatch, gradeStringMatch } from "../../environments/string_match/grade.js";
import { noState, perform } from "../../environments/sdk/perform.js";
import type { Judge } from "../../environments/sdk/index.js";
import { recordedRolloutsMatch } from "../helpers/parity.js";
import { postJson, startTestLocal } from "../helpers/local.js";

const NAME = "string_match";
let local: Local;
beforeAll(async () => {
  local = await startTestLocal({ environments: [NAME] });
});
afterAll(async () => {
  await local?.stop();
});

describe("parity with NeMo Gym's recorded rollouts (workerd)", () => {
  recordedRolloutsMatch(NAME, () => local);
});

const message = (text: string, role = "assistant") => ({
  id: "msg",
  type: "message",
  role,
  status: "completed",
  content: [{ annotations: [], text, type: "output_text" }],
});
const response = (...output: unknown[]) => ({ id: "resp_test", created_at: 0, model: "dummy", object: "response", output });

/** A verifier's context in plain Node: no session state, and no judge (these verifiers call none). */
const noJudge: Judge = () => Promise.reject(new Error("no judge in these tests"));
const context = () => ({ sessionId: "t", state: noState, signal: new AbortController().signal, judge: noJudge });

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function verify(body: Record<string, unknown>): Promise<any> {
  const outcome = await perform(stringMatch, { kind: "verify" }, body, context());
  return outcome.status === 200 ? outcome.body : outcome;
}
const row = (text: string, expected_answer: string, extra: Record<string, unknown> = {}) => ({
  responses_create_params: { input: "q" },
  response: response(message(text)),
  expected_answer,
  ...extra,
});

describe("NeMo Gym's tests (resources_servers/string_match/tests/test_app.py), ported", () => {
  it("test_sanity: the environment defines no tools", () => {
    expect(stringMatch.name).toBe("string_match");
    expect(stringMatch.tools.size).toBe(0);
  });

  it.each([
    ["oven", "oven", 1.0],
    ["oven", "Oven", 1.0],
    ["oven", "  oven  ", 1.0],
    ["oven", "stove", 0.0],
  ])("test_grade_string_match(%j, %j) = %d", (gt, pred, score) => {
    expect(gradeStringMatch(gt, pred)).toBe(score);
  });

  it.each([
    ["Blue", "blue", false, 1.0],
    ["Blue", "blue", true, 0.0],
    ["blue", "blue", true, 1.0],
  ])("test_answers_match_case_sensitivity(%j, %j, case_sensitive=%j) = %d", (extracted, expected, caseSensitive, score) => {
    expect(answersMatch(extracted, expected, caseSensitive)).toBe(score);
  });

  it("test_extract_answer_prefers_boxed", () => {
    expect(extractAnswer("Some reasoning here. The answer is \\boxed{42}.", "boxed")).toBe("42");
  });

  it("test_extract_answer_last_line", () => {
    expect(extractAnswer("First line of reasoning.\nSecond line.\noven", "last_line")).toBe("oven");
  });
});

describe("new cases: the grader (values checked against NeMo Gym's _grade_string_match)", () => {
  it.each([
    ["Paris", "Ｐａｒｉｓ", 1.0], // NFKC folds full-width letters
    ["Saturn", "saturn!", 1.0], // trailing punctuation
    ["Paris", "'Paris'", 1.0], // outer quotes
    ["1000", "1,000", 1.0], // thousands separators
    ["10000000000000000", "1e16", 1.0], // both read as float, compared as Python prints them
    ["1_000", "1000", 1.0], // Python's float() accepts underscores…
    ["١٢٣", "123", 1.0], // …and any Unicode digits
    ["50\\%", "50%", 1.0],
    ["NY", "New York", 1.0], // US state names
    ["3.14159", "3.1416", 0.98], // close numbers earn 0.98
    ["100", "101", 0.98], // (1 - 0.01)^2 = 0.9801
    ["100", "102", 0.0], // (1 - 0.02)^2 = 0.9604
    ["45°", "45", 0.98], // the numeric check runs before unit stripping, so an exact unit match earns 0.98
    ["0.5", "\\frac{1}{2}", 0.0], // no symbolic math
    ["Texas and Ohio", "Ohio, Texas", 0.0], // lists are not reordered despite NeMo Gym's README
    // Kept NeMo Gym quirks: "or"/"and" are dropped even inside words, and a bare "m" is a unit.
    ["or", "oregon", 1.0],
    ["m", "", 1.0],
  ])("grade(%j, %j) = %d", (gt, pred, score) => {
    expect(gradeStringMatch(gt, pred)).toBe(score);
  });

  it("case_sensitive compares stripped text exactly: no punctuation or quote folding", () => {
    expect(answersMatch(" Paris\u3000", "Paris", true)).toBe(1.0);
    expect(answersMatch("Paris.", "Paris", true)).toBe(0.0);
    expect(answersMatch("paris", "Paris", true)).toBe(0.0);
  });
});

describe("new cases: extraction", () => {
  it.each([
    ["Answer: Paris. .", "final_answer", "Paris"],
    ["Final answer：Saturn.", "final_answer", "Saturn"], // full-width colon
    ["Answer: A\nFinal Answer: B", "final_answer", "B"], // the last one
    ["FİNAL answer: x", "final_answer", "x"], // Python's IGNORECASE matches İ to i
    ["no marker \\boxed{7}", "final_answer", "7"], // falls back to the box
    ["Answer: .", "final_answer", ""], // an empty answer is still an answer
    ["x\u2028Paris", "last_line", "Paris"], // Python's splitlines breaks at U+2028…
    ["x\x1cParis\n  \n", "last_line", "Paris"], // …and at \x1c; blank lines are skipped
    ["\\boxed{a} \\boxed{b", "boxed", "a"], // an unclosed last box falls back to an earlier one
    ["\\boxed{\\frac{1}{2}}", "boxed", "\\frac{1}{2}"], // nested braces
    ["\\boxed{ \\text{ Paris } }", "boxed", "Paris"],
    ["   ", "full_response", null],
    ["no box here", "boxed", null],
  ] as const)("extract(%j, %s) = %j", (text, mode, expected) => {
    expect(extractAnswer(text, mode)).toBe(expected);
  });

  it("reads every assistant message (one per line), skipping user messages and refusals", async () => {
    const body = {
      ...row("", "Pacific Ocean", { extraction_mode: "last_line" }),
      response: response(message("Thinking…"), message("Pacific Ocean"), message("Atlantic", "user"), {
        type: "message",
        role: "assistant",
        id: "r",
        content: [{ type: "refusal", refusal: "no" }],
      }),
    };
    expect(await verify(body)).toMatchObject({ reward: 1.0, extracted_answer: "Pacific Ocean" });
  });

  it("no extraction or an empty expected_answer scores 0", async () => {
    expect(await verify(row("nothing boxed", "Paris", { extraction_mode: "boxed" }))).toMatchObject({ reward: 0.0, extracted_answer: null });
    expect(await verify(row("Answer: x", "", {}))).toMatchObject({ reward: 0.0, extracted_answer: "x", expected_answer: "" });
  });

  it("kept NeMo Gym quirk: an empty extracted answer matches a unit-only expected answer", async () => {
    expect((await verify(row("Answer: .", "m"))).reward).toBe(1.0);
  });

  it("defaults: final_answer extraction, case-insensitive grading", async () => {
    expect(await verify(row("Answer: PARIS", "Paris"))).toMatchObject({ reward: 1.0, extraction_mode: "final_answer", case_sensitive: false });
  });

  it("case_sensitive takes pydantic's lax booleans; other values are a bad request", async () => {
    expect((await verify(row("Answer: PARIS", "Paris", { case_sensitive: "yes" }))).reward).toBe(0.0);
    expect((await verify(row("Answer: PARIS", "Paris", { case_sensitive: 0 }))).reward).toBe(1.0);
    for (const bad of [{ case_sensitive: "maybe" }, { extraction_mode: "first_line" }, { expected_answer: 5 }]) {
      const answer = await postJson(`${local.url}/v1/environments/${NAME}/verify`, row("Answer: x", "x", bad));
      expect(answer.status, JSON.stringify(bad)).toBe(400);
    }
  });

  it("workerd gives the same answer as Node for a Unicode-heavy case", async () => {
    const body = row("Reasoning…\nFinal answer：\u00a0Ｐａｒｉｓ.", "paris");
    const viaWorker = await postJson(`${local.url}/v1/environments/${NAME}/verify`, body);
    expect(viaWorker.body).toMatchObject({ reward: 1.0, extracted_answer: "Ｐａｒｉｓ" });
    expect(await verify(body)).toMatchObject({ reward: 1.0, extracted_answer: "Ｐａｒｉｓ" });
  });
});

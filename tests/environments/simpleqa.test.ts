// simpleqa: NeMo Gym's recorded rollouts re-judged in workerd (judge scripted to answer as recorded), its tests, edge cases.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import simpleqa, { extractText, parseJudgeGrade, simpleqaMetrics } from "../../environments/simpleqa/index.js";
import { SIMPLEQA_JUDGE_PROMPT } from "../../environments/simpleqa/prompt.js";
import type { Judge } from "../../environments/sdk/index.js";
import { noState, perform } from "../../environments/sdk/perform.js";
import type { Response as ModelResponse, ResponsesCreateParams } from "../../protocol/index.js";
import { fixtureRollouts } from "../helpers/fixtures.js";
import { postJson, startTestLocal } from "../helpers/local.js";

const NAME = "simpleqa";
let local: Local;
beforeAll(async () => {
  // No retries in the judge's model proxy: a failing judge call fails at once.
  local = await startTestLocal({ environments: [NAME], vars: { judgeProxy: { MODEL_MAX_RETRIES: "0" } } });
});
afterAll(async () => {
  await local?.stop();
});
beforeEach(() => local.simulator!.reset());

const VERDICT = ["reward", "extracted_answer", "expected_answer", "verdict", "judge_output", "is_correct", "is_incorrect", "is_not_attempted"];
const prompt = (question: string, expected: string, generation: string) =>
  SIMPLEQA_JUDGE_PROMPT.replaceAll("{question}", question).replaceAll("{expected_answer}", expected).replaceAll("{generation}", generation);
const judgeMessages = () => local.simulator!.requests.map((r) => (r.messages as { role: string; content: unknown }[]).map((m) => [m.role, m.content]));

/**
 * Records NeMo Gym's own verifier (07d6b0d, unchanged since the recording's commit 742cc5e) does not reproduce: every
 * recorded judge_output starts "After reviewing…", and parse_judge_grade takes a leading A as the grade, so the code
 * grades records 3 and 4 CORRECT (checked by running that commit's parse_judge_grade on them). The port matches the code.
 */
const CORRECT = { reward: 1.0, verdict: "correct", is_correct: 1.0, is_incorrect: 0.0, is_not_attempted: 0.0 };
const STALE_RECORDS: Record<number, Record<string, unknown>> = { 3: CORRECT, 4: CORRECT };

describe("NeMo Gym's recorded rollouts, re-judged (workerd)", () => {
  it.each(fixtureRollouts(NAME).map((record, i) => [i, record] as const))("recorded rollout %i: same prompt, same fields", async (i, record) => {
    local.simulator!.script({ content: record.judge_output as string });
    const request = Object.fromEntries(Object.entries(record).filter(([k]) => !VERDICT.includes(k) || k === "expected_answer"));
    const answer = await postJson(`${local.url}/v1/environments/${NAME}/verify`, request);
    expect(answer.status).toBe(200);
    expect(judgeMessages()).toEqual([[["user", prompt(record.question as string, record.expected_answer as string, record.extracted_answer as string)]]]);
    const expected = { ...Object.fromEntries(VERDICT.map((k) => [k, record[k]])), ...STALE_RECORDS[i] };
    for (const [key, value] of Object.entries(expected)) expect(answer.body[key], key).toEqual(value);
  });

  it("records 3 and 4 are the stale ones: recorded as incorrect and not_attempted", () => {
    expect(fixtureRollouts(NAME).map((r) => r.verdict)).toEqual(["correct", "correct", "correct", "incorrect", "not_attempted"]);
  });

  it("a failed judge call is judge_failed with reward 0; an empty judge reply is a judge failure too", async () => {
    const record = fixtureRollouts(NAME)[0]!;
    local.simulator!.script({ status: 500, error: "judge exploded" });
    const failed = await postJson(`${local.url}/v1/environments/${NAME}/verify`, { ...record, reward: undefined });
    expect(failed.body).toMatchObject({ reward: 0, _ng_failure_class: "judge_failed" });
    local.simulator!.script({ content: "   " });
    const empty = await postJson(`${local.url}/v1/environments/${NAME}/verify`, { ...record, reward: undefined });
    expect(empty.body).toMatchObject({ reward: 0, _ng_failure_class: "judge_failed" });
    expect(String(empty.body._ng_failure_judge_error)).toContain("empty judge response");
  });

  it("bad input: question must be a string (400 with the path)", async () => {
    const record = fixtureRollouts(NAME)[0]!;
    const answer = await postJson(`${local.url}/v1/environments/${NAME}/verify`, { ...record, question: 7 });
    expect(answer.status).toBe(400);
    expect(answer.body.error.issues.map((i: { path: unknown }) => i.path)).toEqual([["question"]]);
  });
});

const message = (text: string, role = "assistant") => ({
  id: "msg",
  type: "message",
  role,
  status: "completed",
  content: [{ annotations: [], text, type: "output_text" }],
});
const response = (...output: unknown[]) =>
  ({
    id: "resp",
    created_at: 0,
    model: "policy_model",
    object: "response",
    output,
    parallel_tool_calls: false,
    tool_choice: "none",
    tools: [],
  }) as unknown as ModelResponse;

/** A judge replying with `text`, remembering what it was asked. */
function scripted(text: string): { judge: Judge; asked: ResponsesCreateParams[] } {
  const asked: ResponsesCreateParams[] = [];
  const judge: Judge = (params) => {
    asked.push(params);
    return Promise.resolve(response(message(text)));
  };
  return { asked, judge };
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function verify(text: string, judge: Judge, extra: Record<string, unknown> = {}): Promise<any> {
  const body = {
    responses_create_params: { input: [] },
    response: response(message(text)),
    question: "What is the capital of France?",
    expected_answer: "Paris",
    ...extra,
  };
  const outcome = await perform(simpleqa, { kind: "verify" }, body, { sessionId: "t", state: noState, signal: new AbortController().signal, judge });
  return outcome.status === 200 ? outcome.body : outcome;
}

describe("NeMo Gym's tests (resources_servers/simpleqa/tests/test_app.py), ported", () => {
  it("TestParseJudgeGrade", () => {
    expect(["A", "B", "C"].map(parseJudgeGrade)).toEqual(["A", "B", "C"]);
    expect(parseJudgeGrade("Some reasoning\nA")).toBe("A");
    expect(parseJudgeGrade("The grade is A based on analysis")).toBe("A");
    expect(parseJudgeGrade("no clear grade here")).toBe("C");
    expect(parseJudgeGrade("  B  ")).toBe("B");
    expect([parseJudgeGrade("A: CORRECT"), parseJudgeGrade("B - INCORRECT"), parseJudgeGrade("C, NOT_ATTEMPTED")]).toEqual(["A", "B", "C"]);
  });
  it("TestExtractText: text verbatim (think tags kept), empty output is empty", () => {
    expect(extractText(response(message("Hello world")))).toBe("Hello world");
    expect(extractText(response(message("<think>reasoning</think>Answer")))).toBe("<think>reasoning</think>Answer");
    expect(extractText(response())).toBe("");
    expect(extractText(response(message("Uzo Njoku was born in 1991.")))).toBe("Uzo Njoku was born in 1991.");
  });
  it("test_verify_correct / incorrect / not_attempted / unparseable", async () => {
    expect(await verify("Paris", scripted("A").judge)).toMatchObject({ reward: 1, verdict: "correct", is_correct: 1, is_incorrect: 0, is_not_attempted: 0 });
    expect(await verify("London", scripted("B").judge)).toMatchObject({ reward: 0, verdict: "incorrect", is_incorrect: 1 });
    expect(await verify("I don't know", scripted("C").judge)).toMatchObject({ reward: 0, verdict: "not_attempted", is_not_attempted: 1 });
    expect(await verify("x", scripted("no clear grade here").judge)).toMatchObject({ reward: 0, verdict: "not_attempted" });
  });
  it("test_verify_passes_message_content_verbatim, test_judge_prompt_contains_question_and_answer", async () => {
    const { judge, asked } = scripted("A");
    expect(await verify("Pancreas", judge, { question: "Which organ?", expected_answer: "Pancreas" })).toMatchObject({
      verdict: "correct",
      extracted_answer: "Pancreas",
    });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ max_output_tokens: 2048, temperature: 0, top_p: 1 });
    expect((asked[0]!.input as { content: string }[])[0]!.content).toBe(prompt("Which organ?", "Pancreas", "Pancreas"));
  });
  it("TestScoreFn and TestSimpleQAComputeMetrics: F1 and accuracy_given_attempted", () => {
    const task = (verdict: string, i: number) => [{ verdict, extracted_answer: `answer_${i}`, reward: verdict === "correct" ? 1 : 0 }];
    const keys = (m: Record<string, unknown>, suffix: string) => Object.keys(m).filter((k) => k.endsWith(suffix));
    const check = (verdicts: string[], f1: number, agt: number) => {
      const m = simpleqaMetrics(verdicts.map(task));
      expect(keys(m, "/f1").length).toBeGreaterThan(0);
      for (const k of keys(m, "/f1")) expect(m[k] as number, k).toBeCloseTo(f1, 6);
      for (const k of keys(m, "/accuracy_given_attempted")) expect(m[k] as number, k).toBeCloseTo(agt, 6);
    };
    check(["correct", "correct", "correct", "correct"], 100, 100);
    check(["incorrect", "incorrect", "incorrect", "incorrect"], 0, 0);
    check(["not_attempted", "not_attempted", "not_attempted", "not_attempted"], 0, 0);
    check(["correct", "correct", "incorrect", "not_attempted"], (100 * 4) / 7, (100 * 2) / 3);
    expect(simpleqaMetrics([task("correct", 0)])["pass@1/correct"]).toBe(100);
  });
});

describe("new cases", () => {
  it("an empty answer still reaches the judge, with an empty generation", async () => {
    const { judge, asked } = scripted("C");
    expect(await verify("", judge)).toMatchObject({ verdict: "not_attempted", extracted_answer: "" });
    expect((asked[0]!.input as { content: string }[])[0]!.content).toBe(prompt("What is the capital of France?", "Paris", ""));
  });
  it("the last assistant message with text is read, its parts joined by newlines; braces in the answer are kept", async () => {
    const body = response(message("early"), {
      ...message("a {x}"),
      content: [
        { type: "output_text", text: " a {x}", annotations: [] },
        { type: "output_text", text: "b ", annotations: [] },
      ],
    });
    expect(extractText(body)).toBe("a {x}\nb");
  });
  it("unicode: a grade after a leading non-grade letter falls back to the last line", () => {
    expect(parseJudgeGrade("Évaluation :\nB")).toBe("B");
    expect(parseJudgeGrade("Ç")).toBe("C");
  });
});

// lc_niah: parity with NeMo Gym's recorded rollouts (in workerd), NeMo Gym's tests ported, and edge cases.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  getList,
  gradeAnswer,
  inputText,
  lcNiahEnvironment,
  reasoningText,
  type OverlapGradingRule,
  type OverlapMetricRule,
} from "../../environments/lc_niah/index.js";
import { normalize, overlapLcs, overlapNgram, overlapSeqMatch } from "../../environments/lc_niah/overlap.js";
import type { Judge } from "../../environments/sdk/index.js";
import { noState, perform } from "../../environments/sdk/perform.js";
import type { Local } from "../../local/emulation.js";
import { Response } from "../../protocol/index.js";
import { fixtureRollouts } from "../helpers/fixtures.js";
import { postJson, startTestLocal } from "../helpers/local.js";

const NAME = "lc_niah";
let local: Local;
beforeAll(async () => {
  local = await startTestLocal({ environments: [NAME] });
});
afterAll(async () => {
  await local?.stop();
});

const VERIFIER_FIELDS = ["reward", "answer_score", "overlap_seq_match", "overlap_ngram16", "overlap_lcs", "reasoning_overlap"];

describe("parity with NeMo Gym's recorded rollouts (workerd)", () => {
  it.each(fixtureRollouts(NAME).map((record, i) => [i, record] as const))("recorded rollout %i: same reward and overlap signals", async (_i, record) => {
    const request = Object.fromEntries(Object.entries(record).filter(([key]) => !VERIFIER_FIELDS.includes(key)));
    const answer = await postJson(`${local.url}/v1/environments/${NAME}/verify`, request);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    for (const key of VERIFIER_FIELDS) expect(answer.body[key], key).toBe(record[key]);
    expect(answer.body.question).toBe(record.question);
  });
});

/** NeMo Gym's `_make_response`: an optional reasoning item (one summary), then an optional assistant message. */
function makeResponse(answer?: string, reasoning?: string) {
  const output: unknown[] = [];
  if (reasoning !== undefined) output.push({ id: "rs", type: "reasoning", summary: [{ text: reasoning, type: "summary_text" }] });
  if (answer !== undefined)
    output.push({ id: "msg", type: "message", role: "assistant", status: "completed", content: [{ annotations: [], text: answer, type: "output_text" }] });
  return { id: "test", created_at: 0, model: "test_model", object: "response", output, parallel_tool_calls: false, tool_choice: "none", tools: [] };
}
const makeRequest = (expected_answer: string, answer?: string, reasoning?: string, input_text = "") => ({
  responses_create_params: { input: [{ content: input_text, role: "user", type: "message" }] },
  response: makeResponse(answer, reasoning),
  expected_answer,
});
const noJudge: Judge = () => Promise.reject(new Error("no judge in these tests"));
const context = () => ({ sessionId: "t", state: noState, signal: new AbortController().signal, judge: noJudge });
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function verify(body: Record<string, unknown>, metric: OverlapMetricRule = "lcs", grading: OverlapGradingRule = "multiply"): Promise<any> {
  const outcome = await perform(lcNiahEnvironment(metric, grading), { kind: "verify" }, body, context());
  return outcome.body;
}
const PROMPT = "The graph has edges from node a to node b and several other distinct nodes scattered around.";

// NeMo Gym's resources_servers/lc_niah/tests/test_app.py, case by case.
describe("NeMo Gym's tests", () => {
  it("TestNormalize.test_strips_and_lowercases", () => expect(normalize("  Hello   WORLD  ")).toBe("hello world"));

  it("TestExtractors", () => {
    const parse = (value: unknown) => Response.parse(value);
    expect(reasoningText(parse(makeResponse(undefined, "step one")))).toBe("step one");
    expect(reasoningText(parse(makeResponse("Paris")))).toBe("");
    expect(inputText("hello there")).toBe("hello there");
    expect(inputText([{ content: "a question", role: "user", type: "message" }])).toBe("a question");
    expect(inputText([{ content: [{ text: "block text", type: "input_text" }], role: "user", type: "message" }])).toBe("block text");
  });

  it.each([
    ["test_perfect_f1", "Final Answer: [a, b]", '["a", "b"]', 1.0],
    ["test_no_overlap_f1_zero", "Final Answer: [c]", '["a", "b"]', 0.0],
    ["test_partial_f1", "Final Answer: [a, c]", '["a", "b"]', 0.5],
    ["test_parse_failure_is_zero", "no final answer here", '["a"]', 0.0],
    ["test_both_empty_is_one", "Final Answer: []", "[]", 1.0],
    ["test_non_json_expected_is_zero", "Final Answer: [a]", "not-json", 0.0],
    ["test_empty_response_is_zero", "", '["a"]', 0.0],
  ] as const)("TestGradeAnswer.%s", (_name, response, expected, score) => {
    expect(gradeAnswer(response, expected)).toBeCloseTo(score, 12);
  });

  it("TestOverlapSeqMatch", () => {
    expect(overlapSeqMatch("", "some long input")).toBe(0.0);
    expect(overlapSeqMatch("copy me", "copy me")).toBe(1.0);
    expect(overlapSeqMatch("xyz", "completely different prompt")).toBeLessThan(0.5);
    const score = overlapSeqMatch("partial overlap text", "some overlap here");
    expect(score >= 0 && score <= 1).toBe(true);
  });

  it("TestOverlapNgram", () => {
    const words = (prefix: string) => Array.from({ length: 20 }, (_, i) => `${prefix}${i}`).join(" ");
    expect(overlapNgram("only a few words here", "only a few words here", 16)).toBe(0.0);
    expect(overlapNgram(words("word"), words("word"), 16)).toBe(1.0);
    expect(overlapNgram(words("r"), words("i"), 16)).toBe(0.0);
    const score = overlapNgram(`${words("s")} ${words("extra")}`, words("s"), 16);
    expect(score > 0 && score < 1).toBe(true);
  });

  it("TestOverlapLcs", () => {
    expect(overlapLcs("", "anything")).toBe(0.0);
    expect(overlapLcs("abcdefgh", "xx abcdefgh yy")).toBe(1.0);
    expect(overlapLcs("abcdwxyz", "qq abcd pp")).toBe(0.5);
    const score = overlapLcs("some reasoning", "some other input text");
    expect(score >= 0 && score <= 1).toBe(true);
  });

  it("test_base_rule_ignores_overlap", async () => {
    const result = await verify(makeRequest('["a", "b"]', "Final Answer: [a, b]", PROMPT, PROMPT), "lcs", "base");
    expect(result).toMatchObject({ answer_score: 1.0, reasoning_overlap: 1.0, reward: 1.0 });
  });
  it("test_wrong_answer_gives_zero_reward", async () => {
    const result = await verify(makeRequest('["a", "b"]', "Final Answer: [c]", "anything", "graph prompt"));
    expect(result).toMatchObject({ answer_score: 0.0, reward: 0.0 });
  });
  it("test_multiply_rule_gates_reward_by_overlap", async () => {
    const result = await verify(makeRequest('["a", "b"]', "Final Answer: [a, b]", PROMPT, PROMPT));
    expect(result).toMatchObject({ answer_score: 1.0, reasoning_overlap: 1.0, reward: 0.0 });
  });
  it("test_multiply_rule_correct_answer_low_overlap", async () => {
    const result = await verify(
      makeRequest(
        '["a", "b"]',
        "Final Answer: [a, b]",
        "I traced the graph briefly and picked the endpoints.",
        "Some long haystack prompt describing a graph with many distinct edges.",
      ),
    );
    expect(result.answer_score).toBe(1.0);
    expect(result.reward).toBe(1.0 - result.reasoning_overlap);
  });
  it("test_minus_rule_subtracts_overlap", async () => {
    const result = await verify(
      makeRequest('["a"]', "Final Answer: [a]", "a partially overlapping reasoning trace", "a partially overlapping prompt with extra words"),
      "lcs",
      "minus",
    );
    expect(result.reward).toBe(result.answer_score - result.reasoning_overlap);
  });
  it("test_no_reasoning_no_penalty", async () => {
    const result = await verify(makeRequest('["a"]', "Final Answer: [a]", undefined, "graph prompt"));
    expect(result).toMatchObject({ overlap_seq_match: 0.0, overlap_ngram16: 0.0, overlap_lcs: 0.0, reasoning_overlap: 0.0, reward: 1.0 });
  });
  it.each([
    ["seq_match", "overlap_seq_match"],
    ["ngram16", "overlap_ngram16"],
    ["lcs", "overlap_lcs"],
  ] as const)("test_metric_rule_selects_signal: %s", async (rule, field) => {
    const result = await verify(
      makeRequest(
        '["a"]',
        "Final Answer: [a]",
        "a partially overlapping reasoning trace with several words",
        "a partially overlapping prompt with several extra words",
      ),
      rule,
    );
    expect(result.reasoning_overlap).toBe(result[field]);
  });
  it("test_invalid_metric_rule_raises / test_invalid_grading_rule_raises", async () => {
    const body = makeRequest('["a"]', "Final Answer: [a]", "r", "i");
    const metric = await perform(lcNiahEnvironment("bogus" as OverlapMetricRule), { kind: "verify" }, body, context());
    const grading = await perform(lcNiahEnvironment("lcs", "bogus" as OverlapGradingRule), { kind: "verify" }, body, context());
    // Python raises ValueError, which NeMo Gym answers with a 500; so does the SDK, naming the error.
    expect(metric).toEqual({ status: 500, body: { error: { code: "verify_error", message: "lc_niah: Invalid overlap metric rule: bogus" } } });
    expect(grading).toEqual({ status: 500, body: { error: { code: "verify_error", message: "lc_niah: Invalid overlap grading rule: bogus" } } });
  });
  it("test_response_fields_present", async () => {
    const result = await verify(makeRequest('["x"]', "Final Answer: [x]", "r", "i"));
    for (const field of VERIFIER_FIELDS) expect(result).toHaveProperty(field);
  });
});

describe("edge cases", () => {
  it("quoted items lose their quotes (lc_niah strips them, unlike graphwalks)", () => {
    expect(getList(`Final Answer: ["a", 'b' , " c "]`)).toEqual({ nodes: ["a", "b", "c"], parseFailed: false });
  });
  it("Python's whitespace: U+001C separates words and U+FEFF does not", () => {
    expect(normalize("A\x1cB\ufeffC")).toBe("a b\ufeffc");
  });
  it("unicode node names match", () => {
    expect(gradeAnswer("Final Answer: [ノード, ß]", '["ß", "ノード"]')).toBe(1.0);
  });
  it("a missing expected_answer is refused with 400 and the zod issue's path", async () => {
    const { expected_answer: _omit, ...body } = makeRequest('["a"]', "Final Answer: [a]");
    const outcome = await perform(lcNiahEnvironment(), { kind: "verify" }, body, context());
    expect(outcome.status).toBe(400);
    expect(JSON.stringify(outcome.body)).toContain('"path":["expected_answer"]');
  });
});

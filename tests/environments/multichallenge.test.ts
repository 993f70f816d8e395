// multichallenge: NeMo Gym's example rows judged in workerd, its tests ported, and edge cases of the verifier.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import multichallenge, { multichallengeEnvironment } from "../../environments/multichallenge/index.js";
import { DEFAULT_CONFIG, JUDGE_PROMPT_TEMPLATE, JUDGE_SYSTEM_MESSAGE } from "../../environments/multichallenge/config.js";
import { aggregateScores } from "../../environments/multichallenge/rubric.js";
import { buildContext, extractVerdict } from "../../environments/multichallenge/text.js";
import { pyFormatKeywords } from "../../environments/sdk/python/format-keywords.js";
import { JudgeError, type Judge, type SimpleEnvironment } from "../../environments/sdk/index.js";
import { noState, perform } from "../../environments/sdk/perform.js";
import type { ResponsesCreateParams, Response as ModelResponse } from "../../protocol/index.js";
import { existsSync } from "node:fs";
import path from "node:path";
import { FIXTURES, fixtureRows } from "../helpers/fixtures.js";
import { postJson, startTestLocal } from "../helpers/local.js";

const NAME = "multichallenge";
let local: Local;
beforeAll(async () => {
  local = await startTestLocal({ environments: [NAME], vars: { judgeProxy: { MODEL_MAX_RETRIES: "0" } } });
});
afterAll(async () => {
  await local?.stop();
});
beforeEach(() => local.simulator!.reset());

const message = (text: string) => ({
  id: "m",
  type: "message",
  role: "assistant",
  status: "completed",
  content: [{ type: "output_text", text, annotations: [] }],
});
const response = (...output: unknown[]) => ({ id: "r", object: "response", created_at: 0, model: "m", output }) as ModelResponse;
const userPrompt = (p: ResponsesCreateParams) => (p.input as { content: string }[]).at(-1)!.content;
/** A judge answering by question (a key found in the prompt), remembering what it was asked. */
function judgeBy(answers: Record<string, string>, asked: ResponsesCreateParams[] = []): Judge {
  return async (params) => {
    asked.push(params);
    const key = Object.keys(answers).find((k) => userPrompt(params).includes(k));
    return response(message(key === undefined ? "unsure" : answers[key]!));
  };
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function verify(judge: Judge, body: unknown, environment: SimpleEnvironment = multichallenge): Promise<any> {
  const outcome = await perform(environment, { kind: "verify" }, body, { sessionId: "t", state: noState, signal: new AbortController().signal, judge });
  return outcome.status === 200 ? outcome.body : outcome;
}

// NeMo Gym's example_rollouts.jsonl for multichallenge is a copy of example.jsonl (no response, no reward): not copied.
describe("NeMo Gym's example rows, judged by a scripted judge", () => {
  const rows = fixtureRows(NAME);
  it("there are 5 example rows and no recorded rollouts", () => {
    expect(rows).toHaveLength(5);
    expect(existsSync(path.join(FIXTURES, NAME, "example_rollouts.jsonl"))).toBe(false);
  });

  it.each(rows.map((row, i) => [i, row] as const))("row %i in workerd: every rubric item reaches the judge with NeMo Gym's prompt", async (_i, row) => {
    const rubric = row.rubric as { question: string; pass_criteria: string }[];
    // The same verdict for every item: the reward does not depend on the order the parallel calls arrive in.
    local.simulator!.script(...rubric.map(() => ({ content: "Reasoning.\n[[YES]]" })));
    const answer = await postJson(`${local.url}/v1/environments/${NAME}/verify`, { ...row, response: response(message("<think>hmm</think>Here you go.")) });
    expect(answer.status).toBe(200);
    const expected = rubric.filter((item) => item.pass_criteria.toUpperCase() !== "NO").length / rubric.length;
    expect(answer.body).toMatchObject({
      reward: expected,
      context: row.context,
      generated_response: "Here you go.",
      num_total: rubric.length,
      aggregation_mode: "mean",
    });
    expect(answer.body).not.toHaveProperty("rubric");
    const sent = local.simulator!.requests.map((r) => (r.messages as { role: string; content: string }[]).map((m) => [m.role, m.content]));
    const prompts = rubric.map((item) => [
      ["system", JUDGE_SYSTEM_MESSAGE],
      [
        "user",
        pyFormatKeywords(JUDGE_PROMPT_TEMPLATE, {
          context: row.context as string,
          response: "Here you go.",
          question: item.question,
          pass_criteria: item.pass_criteria,
        }),
      ],
    ]);
    expect(sent.map((m) => JSON.stringify(m)).sort()).toEqual(prompts.map((m) => JSON.stringify(m)).sort());
  });

  it("a failed judge call in workerd is judge_failed with reward 0", async () => {
    local.simulator!.script({ status: 500, error: "judge down" }, { status: 500, error: "judge down" });
    const answer = await postJson(`${local.url}/v1/environments/${NAME}/verify`, { ...rows[0]!, response: response(message("x")) });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ reward: 0, _ng_failure_class: "judge_failed" });
  });
});

describe("NeMo Gym's tests (resources_servers/multichallenge/tests/test_multichallenge.py), ported", () => {
  it("test_extract_verdict_yes", () =>
    expect(extractVerdict("After analysis, the model correctly addressed the user's allergy. [[YES]]", "[[YES]]", "[[NO]]")).toBe("YES"));
  it("test_extract_verdict_no", () => expect(extractVerdict("The model failed to remember the allergy. [[NO]]", "[[YES]]", "[[NO]]")).toBe("NO"));
  it("test_extract_verdict_fallback", () => expect(extractVerdict("The model did well.\nYES", "[[YES]]", "[[NO]]")).toBe("YES"));
  it("test_extract_verdict_last_wins", () => expect(extractVerdict("Initially [[YES]] but actually [[NO]]", "[[YES]]", "[[NO]]")).toBe("NO"));
  const messages = [
    { role: "user", content: "Hello" },
    { role: "thinking", content: "Processing..." },
    { role: "assistant", content: "Hi there!" },
  ];
  it("test_build_context_excludes_thinking", () => {
    const context = buildContext(messages, true);
    expect(context).not.toContain("Processing");
    expect(context).toContain("[USER]: Hello");
    expect(context).toContain("[ASSISTANT]: Hi there!");
  });
  it("test_build_context_includes_thinking", () => expect(buildContext(messages, false)).toContain("[THINKING]: Processing"));
  it("TestAggregation.test_aggregation_modes", () => {
    const evaluations = [1.0, 0.5, 0.0].map((score) => ({ score, weight: 1.0 }));
    expect(aggregateScores(evaluations, "mean")).toBeCloseTo(0.5, 12);
    expect(aggregateScores(evaluations, "min")).toBe(0.0);
    expect(aggregateScores(evaluations, "max")).toBe(1.0);
    expect(aggregateScores(evaluations, "all")).toBe(0.0);
    expect(aggregateScores(evaluations, "any")).toBe(1.0);
  });
});

const row = (text: string, extra: Record<string, unknown> = {}) => ({
  responses_create_params: { input: [{ role: "user", content: "Q" }] },
  response: response(message(text)),
  context: "[USER]: Q",
  rubric: [
    { question: "first?", pass_criteria: "YES" },
    { question: "second?", pass_criteria: "no" },
  ],
  ...extra,
});

describe("new cases (expected values as NeMo Gym's verifier computes them)", () => {
  it("pass_criteria NO passes on a NO verdict (any case); the judge prompt is the config's, exactly", async () => {
    const asked: ResponsesCreateParams[] = [];
    const body = await verify(judgeBy({ "first?": "[[YES]]", "second?": "[[NO]] then [[YES]] then [[NO]]" }, asked), row("Answer"));
    expect(body).toMatchObject({ reward: 1, num_passed: 2, num_total: 2, generated_response: "Answer", context: "[USER]: Q" });
    expect(body.rubric_evaluations.map((e: { verdict: string; weight: number }) => [e.verdict, e.weight])).toEqual([
      ["YES", 1],
      ["NO", 1],
    ]);
    expect(asked[0]!.input).toEqual([
      { type: "message", role: "system", content: JUDGE_SYSTEM_MESSAGE },
      {
        type: "message",
        role: "user",
        content: pyFormatKeywords(JUDGE_PROMPT_TEMPLATE, { context: "[USER]: Q", response: "Answer", question: "first?", pass_criteria: "YES" }),
      },
    ]);
    expect(asked.every((p) => p.temperature === 0.7 && p.top_p === 0.8 && p.max_output_tokens === 8192)).toBe(true);
  });

  it("an unclear judge reply reads as NO; an empty answer is still judged", async () => {
    const body = await verify(judgeBy({}), { ...row(""), response: response() });
    expect(body).toMatchObject({ reward: 0.5, generated_response: "", num_passed: 1 });
  });

  it("context and rubric come from metadata when absent; thinking turns are left out of the context", async () => {
    const asked: ResponsesCreateParams[] = [];
    const metadata = {
      messages: [{ role: "user", content: "Ünïcödé 🎉" }, { role: "thinking", content: "secret" }, { content: "no role" }],
      rubric: [{ question: "meta?" }],
    };
    const body = await verify(judgeBy({ "meta?": "[[YES]]" }, asked), row("x", { context: "", rubric: null, metadata }));
    expect(body).toMatchObject({ reward: 1, context: "[USER]: Ünïcödé 🎉\n\n[UNKNOWN]: no role", num_total: 1 });
    expect(userPrompt(asked[0]!)).toContain("CONVERSATION CONTEXT:\n[USER]: Ünïcödé 🎉\n\n[UNKNOWN]: no role\n");
  });

  it("no rubric: reward 0 and no judge call", async () => {
    const asked: ResponsesCreateParams[] = [];
    expect(await verify(judgeBy({}, asked), row("x", { rubric: [] }))).toMatchObject({ reward: 0, num_total: 0 });
    expect(asked).toHaveLength(0);
  });

  it("weighted aggregation divides by the total weight; a zero total scores 0", async () => {
    const env = multichallengeEnvironment({ ...DEFAULT_CONFIG, aggregationMode: "weighted", parallelEvaluation: false });
    const rubric = [
      { question: "a?", weight: 3 },
      { question: "b?", weight: "1" },
    ];
    expect((await verify(judgeBy({ "a?": "[[YES]]", "b?": "[[NO]]" }), row("x", { rubric }), env)).reward).toBe(0.75);
    expect(aggregateScores([{ score: 1, weight: 0 }], "weighted")).toBe(0);
  });

  it("a failed judge call is judge_failed; a non-string question fails the verify", async () => {
    const failing: Judge = () => Promise.reject(new JudgeError("the judge answered 503"));
    expect(await verify(failing, row("x"))).toMatchObject({ reward: 0, _ng_failure_class: "judge_failed" });
    expect((await verify(judgeBy({}), row("x", { rubric: [{ question: 7 }] }))).status).toBe(500);
  });

  it("bad input: a rubric that is not a list of objects is a 4xx naming the field", async () => {
    const outcome = await verify(judgeBy({}), row("x", { rubric: "first?" }));
    expect(outcome.status).toBeGreaterThanOrEqual(400);
    expect(outcome.status).toBeLessThan(500);
    expect(JSON.stringify(outcome.body.error.issues)).toContain("rubric");
  });
});

// abstention: NeMo Gym's recorded rollouts re-judged in workerd (judge scripted as recorded), its tests, edge cases.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import abstention, { extractBoxedAnswer, extractText, normalizeAnswer, parseJudgeGrade, stripThinkingTraces } from "../../environments/abstention/index.js";
import { ABSTENTION_JUDGE_PROMPT } from "../../environments/abstention/prompt.js";
import type { Judge } from "../../environments/sdk/index.js";
import { noState, perform } from "../../environments/sdk/perform.js";
import type { Response as ModelResponse, ResponsesCreateParams } from "../../protocol/index.js";
import { fixtureRollouts } from "../helpers/fixtures.js";
import { postJson, startTestLocal } from "../helpers/local.js";

const NAME = "abstention";
let local: Local;
beforeAll(async () => {
  local = await startTestLocal({ environments: [NAME], vars: { judgeProxy: { MODEL_MAX_RETRIES: "0" } } });
});
afterAll(async () => {
  await local?.stop();
});
beforeEach(() => local.simulator!.reset());

const VERDICT = ["reward", "extracted_answer", "ground_truth", "verdict", "judge_output", "is_correct", "is_abstain", "is_incorrect", "omniscience_index"];
const prompt = (question: string, target: string, predicted: string) =>
  ABSTENTION_JUDGE_PROMPT.replace("{question}", question).replace("{target}", target).replace("{predicted_answer}", predicted);
const judgeMessages = () => local.simulator!.requests.map((r) => (r.messages as { role: string; content: unknown }[]).map((m) => [m.role, m.content]));

describe("NeMo Gym's recorded rollouts, re-judged (workerd)", () => {
  it.each(fixtureRollouts(NAME).map((record, i) => [i, record] as const))("recorded rollout %i: same prompt, same fields", async (_i, record) => {
    if (record.judge_output !== null) local.simulator!.script({ content: record.judge_output as string });
    const request = Object.fromEntries(Object.entries(record).filter(([k]) => !VERDICT.includes(k)));
    const answer = await postJson(`${local.url}/v1/environments/${NAME}/verify`, request);
    expect(answer.status).toBe(200);
    for (const key of VERDICT) expect(answer.body[key], key).toEqual(record[key]);
    const asked =
      record.judge_output === null ? [] : [[["user", prompt(record.question as string, record.answer as string, record.extracted_answer as string)]]];
    expect(judgeMessages()).toEqual(asked);
  });

  it("a failed or empty judge call is judge_failed with reward 0", async () => {
    const record = fixtureRollouts(NAME)[0]!;
    local.simulator!.script({ status: 500, error: "judge exploded" });
    expect((await postJson(`${local.url}/v1/environments/${NAME}/verify`, { ...record, reward: undefined })).body).toMatchObject({
      reward: 0,
      _ng_failure_class: "judge_failed",
    });
    local.simulator!.script({ content: "<think>hmm</think>" });
    const empty = await postJson(`${local.url}/v1/environments/${NAME}/verify`, { ...record, reward: undefined });
    expect(empty.body).toMatchObject({ reward: 0, _ng_failure_class: "judge_failed" });
  });

  it("bad input: answer must be a string (400 with the path)", async () => {
    const answer = await postJson(`${local.url}/v1/environments/${NAME}/verify`, { ...fixtureRollouts(NAME)[0]!, answer: ["Yes"] });
    expect(answer.status).toBe(400);
    expect(answer.body.error.issues.map((i: { path: unknown }) => i.path)).toEqual([["answer"]]);
  });
});

const message = (text: string) => ({
  id: "msg",
  type: "message",
  role: "assistant",
  status: "completed",
  content: [{ annotations: [], text, type: "output_text" }],
});
const response = (...output: unknown[]) =>
  ({ id: "r", created_at: 0, model: "m", object: "response", output, parallel_tool_calls: false, tool_choice: "none", tools: [] }) as unknown as ModelResponse;
function scripted(text: string): { judge: Judge; asked: ResponsesCreateParams[] } {
  const asked: ResponsesCreateParams[] = [];
  const judge: Judge = (params) => {
    asked.push(params);
    return Promise.resolve(response(message(text)));
  };
  return { asked, judge };
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function verify(text: string, judge: Judge): Promise<any> {
  const body = { responses_create_params: { input: [] }, response: response(message(text)), question: "Capital of France?", answer: "Paris" };
  const outcome = await perform(abstention, { kind: "verify" }, body, { sessionId: "t", state: noState, signal: new AbortController().signal, judge });
  return outcome.status === 200 ? outcome.body : outcome;
}

describe("NeMo Gym's tests (resources_servers/abstention/tests/test_app.py), ported", () => {
  it("TestExtractBoxedAnswer", () => {
    expect(extractBoxedAnswer("The answer is \\boxed{42}")).toBe("42");
    expect(extractBoxedAnswer("No boxed answer here")).toBeNull();
    expect(extractBoxedAnswer("\\boxed{\\frac{1}{2}}")).toBe("\\frac{1}{2}");
    expect(extractBoxedAnswer("\\boxed{wrong} then \\boxed{right}")).toBe("right");
    expect(extractBoxedAnswer("\\boxed{[IDK]}")).toBe("[IDK]");
    expect(extractBoxedAnswer("\\boxed{}")).toBe("");
    expect(extractBoxedAnswer("\\boxed{unclosed")).toBeNull();
  });
  it("TestNormalizeAnswer", () => {
    expect(normalizeAnswer("Hello World")).toBe("hello world");
    expect(normalizeAnswer("The quick brown fox")).toBe("quick brown fox");
    expect(normalizeAnswer("hello, world!")).toBe("hello world");
    expect(normalizeAnswer("  multiple   spaces  ")).toBe("multiple spaces");
    expect(normalizeAnswer("[IDK]")).toBe("idk");
  });
  it("TestStripThinkingTraces", () => {
    expect(stripThinkingTraces("<think>some reasoning</think>The answer is 42")).toBe("The answer is 42");
    expect(stripThinkingTraces("<thinking>deep thought</thinking>Result: yes")).toBe("Result: yes");
    expect(stripThinkingTraces("reasoning here</think>The actual answer")).toBe("The actual answer");
    expect(stripThinkingTraces("reasoning here</thinking>The actual answer")).toBe("The actual answer");
    expect(stripThinkingTraces("plain text")).toBe("plain text");
    expect(stripThinkingTraces("<think>\nline1\nline2\n</think>\nAnswer")).toBe("Answer");
  });
  it("TestParseJudgeGrade", () => {
    expect(["A", "B", "C"].map(parseJudgeGrade)).toEqual(["A", "B", "C"]);
    expect(parseJudgeGrade("Some reasoning\nA")).toBe("A");
    expect(parseJudgeGrade("The grade is A based on analysis")).toBe("A");
    expect(parseJudgeGrade("no clear grade here")).toBe("B");
    expect(parseJudgeGrade("  C  ")).toBe("C");
    expect(parseJudgeGrade("reasoning\nmore reasoning\nC")).toBe("C");
  });
  it("TestExtractTextFromResponse", () => {
    expect(extractText(response(message("Hello world")))).toBe("Hello world");
    expect(extractText(response(message("<think>x</think>Answer")))).toBe("Answer");
    expect(extractText(response())).toBe("");
  });
  it("TestVerify: \\boxed{[IDK]} abstains without the judge; A is correct, B incorrect, C abstains", async () => {
    const idk = scripted("A");
    expect(await verify("\\boxed{[IDK]}", idk.judge)).toMatchObject({
      reward: 0.5,
      verdict: "abstain",
      is_abstain: 1,
      is_correct: 0,
      is_incorrect: 0,
      judge_output: null,
      extracted_answer: "[IDK]",
    });
    expect(idk.asked).toHaveLength(0);
    const correct = scripted("A");
    expect(await verify("\\boxed{Paris}", correct.judge)).toMatchObject({ reward: 1, verdict: "correct", is_correct: 1, omniscience_index: 1 });
    expect(correct.asked[0]).toMatchObject({ max_output_tokens: 64, temperature: 0, top_p: 1 });
    expect((correct.asked[0]!.input as { content: string }[])[0]!.content).toBe(prompt("Capital of France?", "Paris", "Paris"));
    expect(await verify("\\boxed{London}", scripted("B").judge)).toMatchObject({ reward: 0, verdict: "incorrect", is_incorrect: 1, omniscience_index: -1 });
    expect(await verify("I am not sure", scripted("C").judge)).toMatchObject({ reward: 0.5, verdict: "abstain", is_abstain: 1 });
  });
});

describe("new cases", () => {
  it("an empty answer goes to the judge as an empty prediction", async () => {
    const { judge, asked } = scripted("C");
    expect(await verify("", judge)).toMatchObject({ verdict: "abstain", extracted_answer: "" });
    expect((asked[0]!.input as { content: string }[])[0]!.content).toBe(prompt("Capital of France?", "Paris", ""));
  });
  it("unicode and spacing: 'the [ IDK ]!' still normalises to the abstention token", async () => {
    expect(await verify("\\boxed{The [ IDK ]!}", scripted("A").judge)).toMatchObject({ verdict: "abstain", reward: 0.5 });
    expect(normalizeAnswer("Ça, c'est l'été")).toBe("ça cest lété");
  });
});

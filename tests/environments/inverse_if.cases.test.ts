// inverse_if in plain Node: edge cases of the verifier beyond NeMo Gym's tests (values checked against CPython where Python decides).
import { describe, expect, it } from "vitest";
import inverseIf, { inverseIfEnvironment } from "../../environments/inverse_if/index.js";
import { DEFAULT_CONFIG, DEFAULT_JUDGE_PROMPT_TEMPLATE, DEFAULT_JUDGE_SYSTEM_PROMPT } from "../../environments/inverse_if/config.js";
import { extractVerdict, responseText } from "../../environments/inverse_if/verdict.js";
import { pyFormatKeywords, PyFormatError } from "../../environments/sdk/python/format-keywords.js";
import { JudgeError, type Judge, type SimpleEnvironment } from "../../environments/sdk/index.js";
import { noState, perform } from "../../environments/sdk/perform.js";
import type { ResponsesCreateParams, Response as ModelResponse } from "../../protocol/index.js";

const message = (text: string) => ({
  id: "m",
  type: "message",
  role: "assistant",
  status: "completed",
  content: [{ type: "output_text", text, annotations: [] }],
});
const response = (...output: unknown[]) => ({ id: "r", object: "response", created_at: 0, model: "m", output }) as ModelResponse;
const row = (text: string, extra: Record<string, unknown> = {}) => ({
  responses_create_params: { input: [{ role: "user", content: "Q" }] },
  response: response(message(text)),
  prompt: "Q",
  reference_response: "REF",
  rubric: [
    { id: "C1", criteria: "first" },
    { id: "C2", criteria: "second" },
  ],
  ...extra,
});
const userPrompt = (p: ResponsesCreateParams) => (p.input as { content: string }[]).at(-1)!.content;
/** A judge answering by criterion (its text after "## Evaluation Criteria\n"), remembering what it was asked. */
function judgeBy(answers: Record<string, string>, asked: ResponsesCreateParams[] = []): Judge {
  return async (params) => {
    asked.push(params);
    const prompt = userPrompt(params);
    const key = Object.keys(answers).find((k) => prompt.includes(k));
    return response(message(key === undefined ? "no idea" : answers[key]!));
  };
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function verify(judge: Judge, body: unknown, environment: SimpleEnvironment = inverseIf): Promise<any> {
  const outcome = await perform(environment, { kind: "verify" }, body, { sessionId: "t", state: noState, signal: new AbortController().signal, judge });
  return outcome.status === 200 ? outcome.body : outcome;
}
const PASS = '```json\n{"result": "PASS", "explanation": "ok"}\n```';
const FAIL = '{"result": "FAIL", "explanation": "no"}';

describe("verify", () => {
  it("the reward is the mean of the criteria; the default prompts fill in for a row without its own", async () => {
    const asked: ResponsesCreateParams[] = [];
    const body = await verify(judgeBy({ first: PASS, second: FAIL }, asked), row("Answer"));
    expect(body).toMatchObject({ reward: 0.5, num_passed: 1, num_total: 2, aggregation_mode: "mean", generated_response: "Answer" });
    expect(body.rubric_evaluations.map((e: { verdict: string; explanation: string }) => [e.verdict, e.explanation])).toEqual([
      ["PASS", "ok"],
      ["FAIL", "no"],
    ]);
    expect(asked[0]!.input).toEqual([
      { type: "message", role: "system", content: DEFAULT_JUDGE_SYSTEM_PROMPT },
      {
        type: "message",
        role: "user",
        content: pyFormatKeywords(DEFAULT_JUDGE_PROMPT_TEMPLATE, { prompt: "Q", model_response: "Answer", standard_response: "REF", criteria: "first" }),
      },
    ]);
    expect(asked[0]!.input).not.toBe(asked[1]!.input);
  });

  it("an empty answer is still judged (NeMo Gym sends the judge an empty student response)", async () => {
    const asked: ResponsesCreateParams[] = [];
    const body = await verify(judgeBy({ first: FAIL, second: FAIL }, asked), { ...row(""), response: response() });
    expect(body).toMatchObject({ reward: 0, generated_response: "", num_passed: 0 });
    expect(userPrompt(asked[0]!)).toContain("## Student Response\n\n\n---");
  });

  it("no rubric at all: reward 0 and no judge call", async () => {
    const asked: ResponsesCreateParams[] = [];
    const body = await verify(judgeBy({}, asked), row("x", { rubric: [] }));
    expect(body).toMatchObject({ reward: 0, num_total: 0, rubric_evaluations: [] });
    expect(asked).toHaveLength(0);
  });

  it("prompt, reference and rubric come from metadata when the top-level fields are empty", async () => {
    const asked: ResponsesCreateParams[] = [];
    const body = await verify(
      judgeBy({ meta: PASS }, asked),
      row("x", {
        prompt: "",
        reference_response: null,
        rubric: null,
        metadata: { prompt: "MQ", reference_response: "MREF", rubric: [{ id: "M1", criteria: "meta" }] },
      }),
    );
    expect(body).toMatchObject({ reward: 1, prompt: "MQ", reference_response: "MREF", num_total: 1 });
    expect(userPrompt(asked[0]!)).toContain("## Question\nMQ\n");
  });

  it("thinking is removed from the answer and from the judge's reply; an unpaired </think> cuts what precedes it", async () => {
    expect(responseText(response(message("<think>a\nb</think> Final <thinking>x</thinking>!")))).toBe("Final !");
    expect(responseText(response(message("reasoning only\n</think>\nThe answer")))).toBe("The answer");
    const body = await verify(judgeBy({ first: "<think>FAIL FAIL</think>\nPASS", second: "<think>PASS</think>" }), row("<think>hmm</think>A"));
    expect(body).toMatchObject({ reward: 0.5, generated_response: "A" });
    expect(body.rubric_evaluations[1].judge_response).toBe("");
  });

  it("the last assistant message counts, its text parts joined by newlines", async () => {
    const two = response(message("old"), {
      ...message("part one"),
      content: [
        { type: "output_text", text: "part one" },
        { type: "refusal", refusal: "r" },
        { type: "output_text", text: "part two " },
      ],
    });
    expect(responseText(two)).toBe("part one\npart two");
  });

  it("Unicode passes through the template untouched; Python's whitespace is stripped (NBSP yes, BOM no)", async () => {
    const asked: ResponsesCreateParams[] = [];
    const body = await verify(judgeBy({ first: PASS, second: PASS }, asked), row("\u00a0Ünïcödé 日本語 🎉\ufeff\u00a0"));
    expect(body.generated_response).toBe("Ünïcödé 日本語 🎉\ufeff");
    expect(userPrompt(asked[0]!)).toContain("## Student Response\nÜnïcödé 日本語 🎉\ufeff\n");
  });

  it("a row's template with an unknown placeholder fails the verify, as Python's KeyError does", async () => {
    const outcome = await verify(judgeBy({}), row("x", { judge_prompt_template: "{question}" }));
    expect(outcome.status).toBe(500);
    expect(outcome.body.error.message).toContain("KeyError: 'question'");
  });

  it("a failed judge call is judge_failed with reward 0", async () => {
    const failing: Judge = () => Promise.reject(new JudgeError("the judge answered 503"));
    const body = await verify(failing, row("x"));
    expect(body).toMatchObject({ reward: 0, _ng_failure_class: "judge_failed" });
  });

  it("bad input: a rubric that is not a list of objects is a 4xx naming the field", async () => {
    const outcome = await verify(judgeBy({}), row("x", { rubric: ["C1"] }));
    expect(outcome.status).toBeGreaterThanOrEqual(400);
    expect(outcome.status).toBeLessThan(500);
    expect(JSON.stringify(outcome.body.error.issues)).toContain('"rubric",0');
  });

  it("a rubric item with a non-string id fails (pydantic's RubricEvaluation needs a str)", async () => {
    const outcome = await verify(judgeBy({ first: PASS }), row("x", { rubric: [{ id: 1, criteria: "first" }] }));
    expect(outcome.status).toBe(500);
    expect(outcome.body.error.message).toContain('"id" must be a string');
  });

  it("sequential evaluation and other aggregation modes, from the server config", async () => {
    const env = inverseIfEnvironment({ ...DEFAULT_CONFIG, parallelEvaluation: false, aggregationMode: "all" });
    expect(await verify(judgeBy({ first: PASS, second: FAIL }), row("x"), env)).toMatchObject({ reward: 0, aggregation_mode: "all", num_passed: 1 });
  });
});

describe("the verdict, as CPython reads it", () => {
  it.each([
    // A fenced block that is not valid JSON falls through to the object search, then to keywords.
    ['```json\n{"result": PASS}\n```\nFAIL', ["FAIL", ""]],
    // json.loads takes NaN; the fenced block decides.
    ['```\n{"result": " pass ", "explanation": NaN}\n```', ["PASS", NaN]],
    // A result that is not PASS/FAIL after upper().strip() is skipped.
    ['```json\n{"result": "maybe"}\n```\n{"result": "FAIL"}', ["FAIL", ""]],
    // Only the last five lines are scanned for keywords, last first.
    ["PASS\n1\n2\n3\n4\n5", ["FAIL", ""]],
    ["FAIL then\nPASS later", ["PASS", ""]],
    // The object search matches "RESULT" too, but .get("result") finds nothing: the keyword scan decides.
    ['{"RESULT": "PASS"}', ["PASS", ""]],
    ['```json\n[{"result": "PASS"}]\n```\nnothing', ["PASS", ""]],
    ['{"result": "ﬁ"}', ["FAIL", ""]],
    // Duplicate keys: the last wins, as in json.loads.
    ['{"result": "PASS", "result": "FAIL"}', ["FAIL", ""]],
  ])("%j", (text, expected) => {
    expect(extractVerdict(text)).toEqual(expected);
  });

  it("a non-string explanation fails the verify (pydantic's RubricEvaluation raises)", async () => {
    const outcome = await verify(judgeBy({ first: '{"result": "PASS", "explanation": 3}' }), row("x", { rubric: [{ id: "C1", criteria: "first" }] }));
    expect(outcome.status).toBe(500);
  });
});

describe("str.format with keywords", () => {
  it("attribute, index, !r and format specs are refused loudly rather than guessed", () => {
    for (const template of ["{a.x}", "{a[0]}", "{a!r}", "{a:>5}"]) expect(() => pyFormatKeywords(template, { a: "x" }), template).toThrow("not implement");
  });

  it("fills names, keeps doubled braces, and raises as CPython does", () => {
    expect(pyFormatKeywords("{{a}} {a}!s {a!s} {a:}", { a: "x" })).toBe("{a} x!s x x");
    for (const [template, error] of [
      ["{", "ValueError: Single '{' encountered in format string"],
      ["}", "ValueError: Single '}' encountered in format string"],
      ["a{b", "ValueError: expected '}' before end of string"],
      ["{}", "IndexError: Replacement index 0 out of range for positional args tuple"],
      ["{0}", "IndexError: Replacement index 0 out of range for positional args tuple"],
      ["{x}", "KeyError: 'x'"],
    ]) {
      expect(() => pyFormatKeywords(template!, { a: "x" }), template).toThrow(error!);
      expect(() => pyFormatKeywords(template!, { a: "x" })).toThrow(PyFormatError);
    }
  });
});

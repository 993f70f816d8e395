// equivalence_llm_judge in workerd: NeMo Gym's recorded rollouts re-judged with the recorded verdicts, and the judge failing.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import { EQUIVALENCE_PROMPT_TEMPLATE } from "../../environments/equivalence_llm_judge/prompt.js";
import { fixtureRollouts, fixtureRows, inputKey } from "../helpers/fixtures.js";
import { postJson, startTestLocal } from "../helpers/local.js";

let local: Local;
beforeAll(async () => {
  // No retries in the judge's model proxy: a failing judge call fails at once.
  local = await startTestLocal({ environments: ["equivalence_llm_judge"], vars: { judgeProxy: { MODEL_MAX_RETRIES: "0" } } });
});
afterAll(async () => {
  await local?.stop();
});
beforeEach(() => local.simulator!.reset());

const verify = (body: unknown) => postJson(`${local.url}/v1/environments/equivalence_llm_judge/verify`, body);
const judgeMessages = () => local.simulator!.requests.map((r) => (r.messages as { role: string; content: unknown }[]).map((m) => [m.role, m.content]));
const message = (text: string) => ({
  id: "msg",
  type: "message",
  role: "assistant",
  status: "completed",
  content: [{ type: "output_text", text, annotations: [] }],
});
const request = (question: string, expected: string | null, text: string) => ({
  responses_create_params: { input: [{ role: "user", content: question }] },
  response: { id: "resp", object: "response", created_at: 0, model: "m", output: [message(text)] },
  expected_answer: expected,
});
const prompt = (question: string, expected: string, generated: string) =>
  EQUIVALENCE_PROMPT_TEMPLATE.replace("{question}", question).replace("{expected_answer}", expected).replace("{generated_answer}", generated);

interface Evaluation {
  responses_create_params: { input: { role: string; content: string }[] };
  response: { output: { type: string; content?: { text?: string }[] }[] };
  verdict_label: string | null;
}
const lastText = (e: Evaluation) => e.response.output[e.response.output.length - 1]!.content!.at(-1)!.text!;

describe("NeMo Gym's recorded rollouts, re-judged", () => {
  const rows = fixtureRows("equivalence_llm_judge");
  const records = fixtureRollouts("equivalence_llm_judge");

  it("has 5 records, every one decided by the judge", () => {
    expect(records).toHaveLength(5);
    expect(records.every((r) => (r.judge_evaluations as unknown[]).length === 1)).toBe(true);
  });

  it.each(records.map((record, i) => [i, record] as const))(
    "record %i: the same prompt reaches the judge, the same verdict gives the same reward",
    async (_i, record) => {
      const row = rows.find((r) => inputKey(r) === inputKey(record))!;
      const [recorded] = record.judge_evaluations as Evaluation[];
      local.simulator!.script({ content: lastText(recorded!) });
      const { reward: _r, judge_evaluations: _j, ...body } = record;
      const answer = await verify({ ...body, question: row.question });

      expect(answer.status).toBe(200);
      expect(answer.body.reward).toBe(record.reward);
      expect(answer.body.expected_answer).toBe(record.expected_answer);
      // No system message (judge_system_message is null), the template filled exactly as NeMo Gym filled it.
      expect(judgeMessages()).toEqual([recorded!.responses_create_params.input.map((m) => [m.role, m.content])]);
      const [evaluation] = answer.body.judge_evaluations as Evaluation[];
      expect(answer.body.judge_evaluations).toHaveLength(1);
      expect(evaluation!.verdict_label).toBe(recorded!.verdict_label);
      expect(evaluation!.responses_create_params.input).toEqual(
        recorded!.responses_create_params.input.map(({ role, content }) => ({ type: "message", role, content })),
      );
      expect(lastText(evaluation!)).toBe(lastText(recorded!));
    },
  );
});

describe("the judge", () => {
  it("one call by default: [[A=B]] anywhere in the reply scores 1 and is recorded as the verdict", async () => {
    local.simulator!.script({ content: "Both name the same scientist. [[A=B]] they are equivalent" });
    const answer = await verify(request("Who proposed evolution by natural selection?", "darwin", "\\boxed{Charles Darwin}"));
    expect(answer.body).toMatchObject({ reward: 1, expected_answer: "darwin" });
    expect((answer.body.judge_evaluations as Evaluation[])[0]!.verdict_label).toBe("[[A=B]]");
    expect(judgeMessages()).toEqual([[["user", prompt("Who proposed evolution by natural selection?", "darwin", "\\boxed{Charles Darwin}")]]]);
  });

  it("a failed judge call is judge_failed with reward 0, the request kept", async () => {
    local.simulator!.script({ status: 500, error: "judge exploded" });
    const answer = await verify(request("q", "a", "a"));
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ reward: 0, _ng_failure_class: "judge_failed", expected_answer: "a" });
    expect(String(answer.body._ng_failure_judge_error)).toContain("500");
    expect(answer.body.judge_evaluations).toBeUndefined();
  });

  it("a reply without a label is 'not equal' with no verdict, not a failure", async () => {
    local.simulator!.script({ content: "I cannot decide." });
    const answer = await verify(request("q", "a", "a"));
    expect(answer.body.reward).toBe(0);
    expect(answer.body._ng_failure_class).toBeUndefined();
    expect((answer.body.judge_evaluations as Evaluation[])[0]!.verdict_label).toBeNull();
  });

  it("the label that comes first wins, extra text around it notwithstanding", async () => {
    local.simulator!.script({ content: "Not [[A!=B]]; in fact [[A=B]]." });
    const first = await verify(request("q", "a", "a"));
    expect(first.body.reward).toBe(0);
    expect((first.body.judge_evaluations as Evaluation[])[0]!.verdict_label).toBe("[[A!=B]]");
  });

  it("an empty response shows the judge the extraction-failure message", async () => {
    local.simulator!.script({ content: "[[A!=B]]" });
    const body = request("q", "a", "");
    const answer = await verify({ ...body, response: { ...body.response, output: [] } });
    expect(answer.body.reward).toBe(0);
    expect(judgeMessages()[0]![0]![1]).toBe(prompt("q", "a", "[NO VALID ANSWER EXTRACTED]"));
  });

  it("a missing expected_answer is taken from metadata, or is empty", async () => {
    local.simulator!.script({ content: "[[A=B]]" }, { content: "[[A!=B]]" });
    const fromMetadata = await verify({ ...request("q", null, "42"), metadata: { expected_answer: 42 } });
    expect(fromMetadata.body).toMatchObject({ reward: 1, expected_answer: "42" });
    const none = await verify(request("q", null, "42"));
    expect(none.body).toMatchObject({ reward: 0, expected_answer: "" });
    expect(judgeMessages()[1]![0]![1]).toBe(prompt("q", "", "42"));
  });

  it("a row's template_metadata.output_regex (Python) picks the answer the judge sees", async () => {
    local.simulator!.script({ content: "[[A=B]]" });
    const answer = await verify({
      ...request("What is 2+2?", "4", "Let me explain: the answer is \\boxed{4} because 2+2=4."),
      template_metadata: { output_regex: "\\\\boxed\\{(?P<answer>.*?)\\}" },
    });
    expect(answer.body.reward).toBe(1);
    expect(judgeMessages()[0]![0]![1]).toBe(prompt("What is 2+2?", "4", "4"));
  });
});

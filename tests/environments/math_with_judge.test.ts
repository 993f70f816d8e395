// math_with_judge in workerd: NeMo Gym's recorded rollouts re-verified, its own tests ported, the judge fallback end to end.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import { JUDGE_SYSTEM_MESSAGE, judgePrompt } from "../../environments/math_with_judge/judge.js";
import { fixtureRollouts, fixtureRows, inputKey } from "../helpers/fixtures.js";
import { postJson, startTestLocal } from "../helpers/local.js";

let local: Local;
beforeAll(async () => {
  // No retries in the judge's model proxy: a failing judge call fails at once.
  local = await startTestLocal({ environments: ["math_with_judge"], vars: { judgeProxy: { MODEL_MAX_RETRIES: "0" } } });
});
afterAll(async () => {
  await local?.stop();
});
beforeEach(() => local.simulator!.reset());

type Json = Record<string, unknown>;
const verify = (body: unknown) => postJson(`${local.url}/v1/environments/math_with_judge/verify`, body);
const message = (text: string) => ({
  id: `msg_${text.length}`,
  type: "message",
  role: "assistant",
  status: "completed",
  content: [{ type: "output_text", text, annotations: [] }],
});
const response = (...output: unknown[]) => ({
  id: "resp_test",
  object: "response",
  created_at: 1234.5,
  model: "response_model",
  output,
  parallel_tool_calls: false,
  tool_choice: "none",
  tools: [],
});
const request = (question: string, expected_answer: string, ...output: unknown[]) => ({
  responses_create_params: { input: [{ role: "user", content: question }] },
  response: response(...output),
  question,
  expected_answer,
});
/** The prompts the judge received, as the simulator saw them (Chat Completions, converted by the model proxy). */
const judgeMessages = () => local.simulator!.requests.map((r) => (r.messages as { role: string; content: unknown }[]).map((m) => [m.role, m.content]));

interface Evaluation {
  responses_create_params: { input: { role: string; content: string }[] };
  response: { output: { type: string; content?: { text?: string }[] }[] };
}
const lastText = (e: Evaluation) => e.response.output[e.response.output.length - 1]!.content!.at(-1)!.text!;
const assistantText = (record: Json) =>
  (record.response as { output: { type: string; content?: { type: string; text?: string }[] }[] }).output
    .filter((o) => o.type === "message")
    .flatMap((o) => o.content ?? [])
    .filter((c) => c.type === "output_text")
    .map((c) => c.text)
    .join("");

describe("NeMo Gym's recorded rollouts, re-verified", () => {
  const rows = fixtureRows("math_with_judge");
  const records = fixtureRollouts("math_with_judge");

  it("pairs every record with its example row", () => {
    expect(records).toHaveLength(5);
    for (const record of records) expect(rows.some((r) => inputKey(r) === inputKey(record))).toBe(true);
  });

  it.each(records.map((record, i) => [i, record] as const))("record %i: same reward, extracted answer and library reward", async (_i, record) => {
    const row = rows.find((r) => inputKey(r) === inputKey(record))!;
    const recorded = (record.judge_evaluations as Evaluation[] | null) ?? [];
    // The judge says what NeMo Gym's judge said, in order.
    for (const evaluation of recorded) local.simulator!.script({ content: lastText(evaluation) });
    const { reward: _r, extracted_answer: _e, library_reward: _l, judge_evaluations: _j, ...body } = record;
    const answer = await verify({ ...body, question: row.question });

    expect(answer.status).toBe(200);
    expect(answer.body.reward).toBe(record.reward);
    expect(answer.body.extracted_answer).toBe(record.extracted_answer);
    expect(answer.body.library_reward).toBe(record.library_reward);
    expect(answer.body.expected_answer).toBe(record.expected_answer);
    if (recorded.length === 0) {
      // Decided symbolically: no judge call at all.
      expect(answer.body.judge_evaluations).toBeNull();
      expect(local.simulator!.requests).toHaveLength(0);
      return;
    }
    const evaluations = answer.body.judge_evaluations as Evaluation[];
    expect(evaluations).toHaveLength(recorded.length);
    expect(judgeMessages()).toHaveLength(recorded.length);
    for (const [i, evaluation] of recorded.entries()) {
      const [system, user] = evaluation.responses_create_params.input;
      // Recorded before NeMo Gym sent the judge the extracted answer instead of the whole response
      // (commit d1f57f7b5); with that one substitution the prompt is the same text.
      const expectedUser = user!.content.replace(assistantText(record), String(record.extracted_answer));
      expect(judgeMessages()[i]).toEqual([
        ["system", system!.content],
        ["user", expectedUser],
      ]);
      expect(evaluations[i]!.responses_create_params.input.map((m) => m.content)).toEqual([system!.content, expectedUser]);
      expect(lastText(evaluations[i]!)).toBe(lastText(evaluation));
    }
  });

  it("counts: 5 records, 2 decided by the judge, 3 symbolically", () => {
    expect(records.filter((r) => r.judge_evaluations !== null)).toHaveLength(2);
  });
});

describe("NeMo Gym's tests (test_app.py), ported", () => {
  it("test_verify: '$1' is judged (not equal), '$1' + ' + x$' matches x + 1 symbolically", async () => {
    local.simulator!.script({ content: "[[A!=B]] done" });
    const question = "Simplify the expression x + 7 - 6";
    const notEqual = await verify(request(question, "x + 1", message("$1")));
    expect(notEqual.body).toMatchObject({ reward: 0, expected_answer: "x + 1", extracted_answer: "1", library_reward: 0 });
    expect(notEqual.body.judge_evaluations).toHaveLength(1);
    expect(judgeMessages()[0]).toEqual([
      ["system", JUDGE_SYSTEM_MESSAGE],
      ["user", judgePrompt(question, "x + 1", "1")],
    ]);

    // A reasoning item and a refusal are skipped; the texts of the messages are joined.
    const equal = await verify(
      request(question, "x + 1", message("$1"), { id: "extra_reasoning", type: "reasoning", summary: [] }, message(" + x$"), {
        id: "refusal_finish",
        type: "message",
        role: "assistant",
        status: "completed",
        content: [{ type: "refusal", refusal: "no response" }],
      }),
    );
    expect(equal.body).toMatchObject({ reward: 1, extracted_answer: "x + 1", library_reward: 1, judge_evaluations: null });
    expect(local.simulator!.requests).toHaveLength(1);
  });

  it("test_verify_answer: symbolic match, one 'not equal' judgment, and two 'equal' judgments in swapped order", async () => {
    const symbolic = await verify(request("What is 3 plus 5?", "8", message("3 + 5 = \\boxed{8}")));
    expect(symbolic.body).toMatchObject({ reward: 1, extracted_answer: "8", library_reward: 1, judge_evaluations: null });

    local.simulator!.script({ content: "Conclusion: [[A!=B]]" });
    const different = await verify(request("What is 1 + 1?", "2", message("3")));
    expect(different.body).toMatchObject({ reward: 0, extracted_answer: "3", library_reward: 0 });
    expect(judgeMessages()).toEqual([
      [
        ["system", JUDGE_SYSTEM_MESSAGE],
        ["user", judgePrompt("What is 1 + 1?", "2", "3")],
      ],
    ]);

    local.simulator!.reset();
    local.simulator!.script({ content: "I say [[A=B]] as the verdict" }, { content: "[[A=B]]" });
    const judged = await verify(request("What is 14 divided by 10?", "1.4", message("Final answer: {7 / 5}")));
    expect(judged.body).toMatchObject({ reward: 1, extracted_answer: "5", library_reward: 0 });
    expect(judged.body.judge_evaluations).toHaveLength(2);
    expect(judgeMessages().map((m) => m[1]![1])).toEqual([
      judgePrompt("What is 14 divided by 10?", "1.4", "5"),
      judgePrompt("What is 14 divided by 10?", "5", "1.4"),
    ]);
  });

  // NeMo Gym calls _verify_answer_with_judge directly with "0.5" and "20.0"; through /verify those match
  // symbolically, so worded answers reach the judge here (the direct calls are in the unit tests).
  it("test_verify_answer_with_judge: not equal first stops; equal then equal is 1; equal then not equal is 0", async () => {
    const cases: [string, string, string, string[], number][] = [
      ["What is 2 + 2?", "4", "5", ["[[A!=B]] is the evaluation"], 0],
      ["What is 3 divided by 6?", "1/2", "two quarters", ["[[A=B]]", "I conclude that [[A=B]]"], 1],
      ["What is 4 times 5?", "20", "twenty", ["I conclude that [[A=B]]", "[[A!=B]]"], 0],
    ];
    for (const [question, expected, generated, verdicts, reward] of cases) {
      local.simulator!.reset();
      local.simulator!.script(...verdicts.map((content) => ({ content })));
      const answer = await verify(request(question, expected, message(generated)));
      expect(answer.body.reward, question).toBe(reward);
      expect(answer.body.judge_evaluations).toHaveLength(verdicts.length);
      // Words have no extractable answer: the judge sees the whole response.
      const shown = (answer.body.extracted_answer as string | null) ?? generated;
      const prompts = [judgePrompt(question, expected, shown), judgePrompt(question, shown, expected)].slice(0, verdicts.length);
      expect(judgeMessages().map((m) => m[1]![1])).toEqual(prompts);
    }
  });

  it("test_generate_judge_evaluation: how the judge's reply is read", async () => {
    const replies: [unknown, boolean][] = [
      [{ reasoning: "thinking only", content: null }, false],
      [{ content: "no evaluation" }, false],
      [{ content: "Evaluation: [[A!=B]]" }, false],
      [{ content: "The evaluation is [[A=B]]" }, true],
      [{ content: "First [[A=B]], then [[A!=B]]" }, true],
      [{ content: "[[A!=B]] [[A=B]]" }, false],
    ];
    for (const [reply, equal] of replies) {
      local.simulator!.reset();
      // An "equal" first verdict asks again in swapped order; the second reply repeats it.
      local.simulator!.script(reply as { content: string }, reply as { content: string });
      const answer = await verify(request("What is 1 + 1?", "2", message("\\boxed{3}")));
      expect(answer.body.reward, JSON.stringify(reply)).toBe(equal ? 1 : 0);
      expect(answer.body.judge_evaluations).toHaveLength(equal ? 2 : 1);
    }
  });

  it("test_generate_judge_evaluation: a judge whose answer is not a Response is a failed judge call", async () => {
    local.simulator!.script({ malformed: true });
    const answer = await verify(request("What is 1 + 1?", "2", message("\\boxed{3}")));
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ reward: 0, _ng_failure_class: "judge_failed" });
  });
});

describe("the judge call failing, and odd replies", () => {
  it("a judge answering 500 makes the rollout judge_failed with reward 0, the request kept", async () => {
    local.simulator!.script({ status: 500, error: "judge exploded" });
    const answer = await verify(request("What is 1 + 1?", "2", message("\\boxed{3}")));
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ reward: 0, _ng_failure_class: "judge_failed", expected_answer: "2", question: "What is 1 + 1?" });
    expect(String(answer.body._ng_failure_judge_error)).toContain("500");
  });

  it("a verdict with extra text around it counts; an unparseable verdict is 'different', not a failure", async () => {
    local.simulator!.script({ content: "Both give 2, so my final verdict is: [[A=B]] (equivalent)." }, { content: "Yes. [[A=B]]" });
    const extra = await verify(request("What is 1 + 1?", "2", message("\\boxed{two}")));
    expect(extra.body.reward).toBe(1);
    local.simulator!.script({ content: "They look the same to me: A=B" });
    const unparseable = await verify(request("What is 1 + 1?", "2", message("\\boxed{two}")));
    expect(unparseable.body).toMatchObject({ reward: 0 });
    expect(unparseable.body._ng_failure_class).toBeUndefined();
    expect(unparseable.body.judge_evaluations).toHaveLength(1);
  });

  it("no answer to extract: the judge sees the whole response", async () => {
    local.simulator!.script({ content: "[[A!=B]]" });
    const answer = await verify(request("Name the number.", "2", message("I do not know.")));
    expect(answer.body).toMatchObject({ reward: 0, extracted_answer: null, library_reward: 0 });
    expect(judgeMessages()[0]![1]![1]).toBe(judgePrompt("Name the number.", "2", "I do not know."));
  });

  it("a symbolic match never asks the judge, even with a judge reply waiting", async () => {
    local.simulator!.script({ content: "[[A!=B]]" });
    const answer = await verify(request("Half?", "\\frac{1}{2}", message("So it is \\boxed{0.5}.")));
    expect(answer.body).toMatchObject({ reward: 1, library_reward: 1, extracted_answer: "1/2", judge_evaluations: null });
    expect(local.simulator!.requests).toHaveLength(0);
  });

  it("a row without question or expected_answer is a 400 naming the field", async () => {
    const { question: _q, ...body } = request("q", "1", message("1"));
    const answer = await verify(body);
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain("question");
  });
});

describe("/aggregate_metrics: NeMo Gym's TestAggregateMetrics, ported", () => {
  it("symbolic and judge accuracy, pass@k and majority@k over extracted answers", async () => {
    const rollout = (task: number, index: number, reward: number, judged: boolean, answer: string): Json => ({
      _ng_task_index: task,
      _ng_rollout_index: index,
      reward,
      library_reward: reward,
      judge_evaluations: judged ? [{ verdict: reward ? "A=B" : "A!=B" }] : null,
      extracted_answer: answer,
    });
    const answer = await postJson(`${local.url}/v1/environments/math_with_judge/aggregate_metrics`, {
      verify_responses: [rollout(0, 0, 1, true, "42"), rollout(0, 1, 0, true, "43"), rollout(1, 0, 1, false, "7"), rollout(1, 1, 0, false, "8")],
    });
    expect(answer.status).toBe(200);
    const metrics = answer.body.agent_metrics as Json;
    for (const key of [
      "pass@1/symbolic_accuracy",
      "pass@1[avg-of-2]/symbolic_accuracy",
      "majority@2/symbolic_accuracy",
      "pass@1/judge_accuracy",
      "pass@1[avg-of-2]/symbolic_accuracy/std_dev_across_runs",
    ]) {
      expect(metrics, key).toHaveProperty([key]);
    }
    expect(Object.keys(metrics).some((k) => k.endsWith("avg_sample_std_dev"))).toBe(false);
  });
});

// inverse_if: NeMo Gym's recorded rollouts re-judged (workerd and plain Node), its tests ported, and edge cases.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import inverseIf from "../../environments/inverse_if/index.js";
import type { AggregationMode } from "../../environments/inverse_if/config.js";
import { aggregateScores } from "../../environments/inverse_if/rubric.js";
import { extractVerdict } from "../../environments/inverse_if/verdict.js";
import type { Judge, SimpleEnvironment } from "../../environments/sdk/index.js";
import { noState, perform } from "../../environments/sdk/perform.js";
import type { ResponsesCreateParams, Response as ModelResponse } from "../../protocol/index.js";
import { fixtureRollouts, fixtureRows } from "../helpers/fixtures.js";
import { postJson, startTestLocal } from "../helpers/local.js";

const NAME = "inverse_if";
let local: Local;
beforeAll(async () => {
  local = await startTestLocal({ environments: [NAME], vars: { judgeProxy: { MODEL_MAX_RETRIES: "0" } } });
});
afterAll(async () => {
  await local?.stop();
});
beforeEach(() => local.simulator!.reset());

interface Evaluation {
  criterion_id: string;
  criteria: string;
  judge_prompt: string;
  judge_response: string;
  verdict: string;
  explanation: string;
  score: number;
}
const rows = fixtureRows(NAME);
const records = fixtureRollouts(NAME);

/** The verify request NeMo Gym sent for a record: the example row's task fields (its answer drops them) and the response. */
function requestFor(record: Record<string, unknown>): Record<string, unknown> {
  const row = rows.find((r) => r.uuid === record.uuid);
  if (!row) throw new Error(`no example row has uuid ${String(record.uuid)}`);
  return { ...row, response: record.response };
}
/** The fields NeMo Gym's verifier added (everything but what it echoes from the request). */
const VERDICT_KEYS = ["reward", "prompt", "generated_response", "reference_response", "rubric_evaluations", "aggregation_mode", "num_passed", "num_total"];
const verdictOf = (body: Record<string, unknown>) => Object.fromEntries(VERDICT_KEYS.map((k) => [k, body[k]]));

const reply = (text: string): ModelResponse =>
  ({
    id: "judge",
    object: "response",
    created_at: 0,
    model: "judge",
    output: [{ id: "m", type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] }],
  }) as ModelResponse;
const userPrompt = (params: ResponsesCreateParams) => {
  const input = params.input as { role: string; content: string }[];
  return input[input.length - 1]!.content;
};
/** A judge that answers each prompt as the recorded judge answered it, and remembers what it was asked. */
function recordedJudge(evaluations: Evaluation[], asked: ResponsesCreateParams[] = []): Judge {
  return async (params) => {
    asked.push(params);
    const hit = evaluations.find((e) => e.judge_prompt === userPrompt(params));
    if (!hit) throw new Error("the judge was asked a prompt NeMo Gym never asked");
    return reply(hit.judge_response);
  };
}
const context = (judge: Judge) => ({ sessionId: "t", state: noState, signal: new AbortController().signal, judge });
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function verifyWith(judge: Judge, body: unknown, environment: SimpleEnvironment = inverseIf): Promise<any> {
  const outcome = await perform(environment, { kind: "verify" }, body, context(judge));
  return outcome.status === 200 ? outcome.body : outcome;
}

describe("NeMo Gym's recorded rollouts, re-judged", () => {
  it("has 5 records of 3 criteria each, one of them with a FAIL", () => {
    expect(records).toHaveLength(5);
    expect(records.map((r) => r.num_total)).toEqual([3, 3, 3, 3, 3]);
    expect(records.map((r) => r.reward)).toContain(2 / 3);
  });

  it.each(records.map((record, i) => [i, record] as const))("record %i in Node: the same prompts, evaluations and reward", async (_i, record) => {
    const recorded = record.rubric_evaluations as Evaluation[];
    const asked: ResponsesCreateParams[] = [];
    const body = await verifyWith(recordedJudge(recorded, asked), requestFor(record));
    expect(verdictOf(body)).toEqual(verdictOf(record));
    // The row's own system prompt, then the filled template; the config's sampling parameters.
    const row = rows.find((r) => r.uuid === record.uuid)!;
    expect(asked.map((p) => p.input)).toEqual(
      recorded.map((e) => [
        { type: "message", role: "system", content: row.judge_system_prompt },
        { type: "message", role: "user", content: e.judge_prompt },
      ]),
    );
    expect(asked.every((p) => p.temperature === 0.7 && p.top_p === 0.8 && p.max_output_tokens === 8192)).toBe(true);
    // NeMo Gym's answer drops the rubric and the judge prompts from the echoed request (as JSON, what a caller reads).
    const wire = JSON.parse(JSON.stringify(body));
    for (const key of ["rubric", "judge_prompt_template", "judge_system_prompt"]) expect(wire).not.toHaveProperty(key);
    expect(wire.uuid).toBe(record.uuid);
  });

  it.each(records.map((record, i) => [i, record] as const))("record %i in workerd: same reward, counts and judge prompts", async (_i, record) => {
    const recorded = record.rubric_evaluations as Evaluation[];
    local.simulator!.script(...recorded.map((e) => ({ content: e.judge_response })));
    const answer = await postJson(`${local.url}/v1/environments/${NAME}/verify`, requestFor(record));
    expect(answer.status).toBe(200);
    expect(answer.body.reward).toBe(record.reward);
    for (const key of ["num_passed", "num_total", "prompt", "generated_response", "reference_response", "aggregation_mode"]) {
      expect(answer.body[key], key).toEqual(record[key]);
    }
    const prompts = local.simulator!.requests.map((r) => (r.messages as { content: string }[]).at(-1)!.content);
    expect(prompts.sort()).toEqual(recorded.map((e) => e.judge_prompt).sort());
    const got = (answer.body.rubric_evaluations as Evaluation[]).map((e) => [e.criterion_id, e.judge_prompt]);
    expect(got).toEqual(recorded.map((e) => [e.criterion_id, e.judge_prompt]));
    for (const key of ["rubric", "judge_prompt_template", "judge_system_prompt"]) expect(answer.body).not.toHaveProperty(key);
  });
});

describe("NeMo Gym's tests (resources_servers/inverse_if/tests/test_inverse_if.py), ported", () => {
  it.each([
    ["test_json_in_code_block", 'Some analysis...\n```json\n{"result": "PASS", "explanation": "All criteria met."}\n```', "PASS", "All criteria met."],
    ["test_json_in_code_block_fail", '```json\n{"result": "FAIL", "explanation": "Missing exclamation mark."}\n```', "FAIL", "Missing exclamation mark."],
    ["test_json_without_code_block", 'Here is my evaluation:\n{"result": "PASS", "explanation": "Looks good."}', "PASS", "Looks good."],
    ["test_keyword_fallback_pass", "The student met all requirements.\nPASS", "PASS", ""],
    ["test_keyword_fallback_fail", "Criterion not satisfied.\nFAIL", "FAIL", ""],
    ["test_default_to_fail", "I'm not sure what to say here.", "FAIL", ""],
    ["test_case_insensitive_json", '{"result": "pass", "explanation": "ok"}', "PASS", "ok"],
  ])("TestExtractVerdict.%s", (_name, text, verdict, explanation) => {
    expect(extractVerdict(text)).toEqual([verdict, explanation]);
  });

  it("TestExtractVerdict.test_json_with_extra_text_around", () => {
    const text =
      "Let me evaluate this carefully.\n\nThe student wrote three sentences correctly.\n\n" +
      '```json\n{"result": "PASS", "explanation": "All three sentences present."}\n```\n\nThat concludes my evaluation.';
    const [verdict, explanation] = extractVerdict(text);
    expect(verdict).toBe("PASS");
    expect(explanation).toContain("three sentences");
  });

  it("TestAggregation.test_aggregation_modes", () => {
    const scores = [1.0, 0.0, 1.0];
    expect(aggregateScores(scores, "mean")).toBeCloseTo(2 / 3, 12);
    expect(aggregateScores(scores, "min")).toBe(0.0);
    expect(aggregateScores(scores, "max")).toBe(1.0);
    expect(aggregateScores(scores, "all")).toBe(0.0);
    expect(aggregateScores(scores, "any")).toBe(1.0);
  });
  it("TestAggregation.test_empty_evaluations", () => {
    for (const mode of ["mean", "min", "max", "all", "any", "weighted"] as AggregationMode[]) expect(aggregateScores([], mode)).toBe(0.0);
  });
  it("TestAggregation.test_all_pass", () => {
    for (const mode of ["mean", "min", "max", "all", "any", "weighted"] as AggregationMode[]) expect(aggregateScores([1, 1, 1], mode)).toBe(1.0);
  });
});

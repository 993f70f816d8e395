// graphwalks: parity with NeMo Gym's recorded rollouts (in workerd), NeMo Gym's tests ported, and edge cases.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { f1Score, parseNodeList } from "../../environments/graphwalks/index.js";
import { pySetOfJson, stringKey } from "../../environments/sdk/python/json-set.js";
import type { Local } from "../../local/emulation.js";
import { fixtureRollouts } from "../helpers/fixtures.js";
import { postJson, startTestLocal } from "../helpers/local.js";

const NAME = "graphwalks";
let local: Local;
beforeAll(async () => {
  local = await startTestLocal({ environments: [NAME] });
});
afterAll(async () => {
  await local?.stop();
});

const VERIFIER_FIELDS = ["reward", "f1", "parse_failed", "predicted_nodes"];
const verify = (body: Record<string, unknown>) => postJson(`${local.url}/v1/environments/${NAME}/verify`, body);
const response = (text: string) => ({
  id: "resp_test",
  created_at: 0,
  model: "dummy",
  object: "response",
  output: [{ id: "msg", type: "message", role: "assistant", status: "completed", content: [{ annotations: [], text, type: "output_text" }] }],
  parallel_tool_calls: true,
  tool_choice: "auto",
  tools: [],
});
const task = {
  responses_create_params: { input: [{ role: "user", content: "Find the parents of node a." }] },
  expected_answer: '["a", "b"]',
  problem_type: "parents",
};
const keys = (...nodes: string[]) => new Set(nodes.map(stringKey));

describe("parity with NeMo Gym's recorded rollouts (workerd)", () => {
  it.each(fixtureRollouts(NAME).map((record, i) => [i, record] as const))(
    "recorded rollout %i: same reward, f1, parse_failed, predicted_nodes",
    async (_i, record) => {
      const request = Object.fromEntries(Object.entries(record).filter(([key]) => !VERIFIER_FIELDS.includes(key)));
      const answer = await verify(request);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      for (const key of VERIFIER_FIELDS) expect(answer.body[key], key).toEqual(record[key]);
    },
  );
});

// NeMo Gym's resources_servers/graphwalks/tests/test_app.py, case by case (metrics tests: the SDK's aggregate metrics).
describe("NeMo Gym's tests: _parse_node_list", () => {
  it.each([
    ["test_parses_well_formed_list", "...\nFinal Answer: [node_1, node_2, node_3]", ["node_1", "node_2", "node_3"], false],
    ["test_empty_list_is_valid", "Final Answer: []", [], false],
    ["test_only_uses_last_line", "Final Answer: [decoy]\nbecause I said so\nFinal Answer: [real]", ["real"], false],
    ["test_skips_trailing_blank_lines", "Final Answer: [a, b]\n\n   \n", ["a", "b"], false],
    ["test_missing_format_fails", "The answer is node_42.", [], true],
    ["test_blank_response_fails", "", [], true],
    ["test_strips_whitespace_inside_list", "Final Answer: [  a  ,b ,   c]", ["a", "b", "c"], false],
    ["test_drops_empty_items", "Final Answer: [a,, b,]", ["a", "b"], false],
  ] as const)("%s", (_name, text, nodes, parseFailed) => {
    expect(parseNodeList(text)).toEqual({ nodes, parseFailed });
  });
});

describe("NeMo Gym's tests: _f1_score", () => {
  it("test_parse_failed_is_zero", () => expect(f1Score(new Set(["a"]), keys("a"), true)).toBe(0.0));
  it("test_both_empty_is_one", () => expect(f1Score(new Set(), keys(), false)).toBe(1.0));
  it("test_predicted_empty_expected_nonempty", () => expect(f1Score(new Set(), keys("a"), false)).toBe(0.0));
  it("test_predicted_nonempty_expected_empty", () => expect(f1Score(new Set(["a"]), keys(), false)).toBe(0.0));
  it("test_exact_match_is_one", () => expect(f1Score(new Set(["a", "b"]), keys("a", "b"), false)).toBe(1.0));
  it("test_no_overlap_is_zero", () => expect(f1Score(new Set(["a"]), keys("b"), false)).toBe(0.0));
  it("test_partial_overlap", () => expect(f1Score(new Set(["a", "b"]), keys("a", "c"), false)).toBeCloseTo(0.5, 12));
  it("test_unequal_sizes", () => expect(f1Score(new Set(["a", "b", "c"]), keys("a"), false)).toBeCloseTo(0.5, 12));
});

describe("set(json.loads(expected_answer)) as Python builds it", () => {
  it("a list gives its elements; 1, 1.0 and true are one element; a string its characters; a dict its keys", () => {
    expect(pySetOfJson('["a", "a", "b"]').size).toBe(2);
    expect(pySetOfJson("[1, 1.0, true]").size).toBe(1);
    expect(pySetOfJson('"abca"')).toEqual(keys("a", "b", "c"));
    expect(pySetOfJson('{"x": 1, "y": 2}')).toEqual(keys("x", "y"));
  });
  it("each NaN is its own element; big integers stay exact", () => {
    expect(pySetOfJson("[NaN, NaN]").size).toBe(2);
    expect(pySetOfJson("[9007199254740993, 9007199254740992]").size).toBe(2);
  });
  it("invalid JSON, a number, null, or a list holding a list gives the empty set", () => {
    for (const text of ["not json", "5", "null", '[["a"], "b"]']) expect(pySetOfJson(text)).toEqual(new Set());
  });
});

describe("edge cases (workerd)", () => {
  it("an empty answer: parse failed, reward 0", async () => {
    const answer = await verify({ ...task, response: response("") });
    expect(answer.body).toMatchObject({ reward: 0.0, f1: 0.0, parse_failed: true, predicted_nodes: [] });
  });

  it("an expected answer that is not JSON counts as the empty set: 'Final Answer: []' scores 1", async () => {
    const answer = await verify({ ...task, expected_answer: "a, b", response: response("Final Answer: []") });
    expect(answer.body).toMatchObject({ reward: 1.0, parse_failed: false, predicted_nodes: [] });
  });

  it("unicode node names, and a carriage return inside the last line (Python's '.' crosses it)", async () => {
    const answer = await verify({ ...task, expected_answer: '["ノード", "ß"]', response: response("Final Answer: [ノード,\r ß]") });
    expect(answer.body).toMatchObject({ reward: 1.0, predicted_nodes: ["ノード", "ß"] });
  });

  it("quoted items are kept with their quotes (graphwalks does not strip them, unlike lc_niah)", async () => {
    const answer = await verify({ ...task, response: response('Final Answer: ["a", "b"]') });
    expect(answer.body).toMatchObject({ reward: 0.0, predicted_nodes: ['"a"', '"b"'] });
  });

  it("a task without problem_type is refused with 400 and the zod issue's path", async () => {
    const { problem_type: _omit, ...rest } = task;
    const answer = await verify({ ...rest, response: response("x") });
    expect(answer.status).toBe(400);
    expect(answer.body.error.issues[0].path).toEqual(["problem_type"]);
  });
});

// xlam_fc: parity with NeMo Gym's recorded rollouts (in workerd), NeMo Gym's own tests ported, and edge cases.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import xlamFc from "../../environments/xlam_fc/index.js";
import { noState, perform } from "../../environments/sdk/perform.js";
import type { Judge } from "../../environments/sdk/index.js";
import { FIXTURES } from "../helpers/fixtures.js";
import { recordedRolloutsMatch } from "../helpers/parity.js";
import { postJson, startTestLocal } from "../helpers/local.js";

const NAME = "xlam_fc";
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

describe("a rollout through /run (the agent calls the environment over RPC)", () => {
  it("verifies: predicted calls parsed as Python dicts (null-prototype records) cross RPC as plain data", async () => {
    const row = JSON.parse(readFileSync(path.join(FIXTURES, NAME, "example.jsonl"), "utf8").split("\n")[0]!);
    const answer = await postJson(`${local.url}/run?environment=${NAME}`, row);
    expect(answer.status, JSON.stringify(answer.body).slice(0, 500)).toBe(200);
    expect(typeof answer.body.reward).toBe("number");
    expect(answer.body.failure_class).toBeUndefined();
    expect(Array.isArray(answer.body.predicted_calls)).toBe(true);
    expect(answer.body.num_predicted).toBe(answer.body.predicted_calls.length);
  });
});

let callId = 0;
const call = (name: string, args: unknown) => ({
  call_id: `call_${++callId}`,
  name,
  arguments: typeof args === "string" ? args : JSON.stringify(args),
  type: "function_call",
});
const text = (t: string) => ({
  id: "msg_1",
  content: [{ annotations: [], text: t, type: "output_text" }],
  role: "assistant",
  status: "completed",
  type: "message",
});
const response = (...output: unknown[]) => ({
  id: "resp_test",
  created_at: 0,
  model: "dummy",
  object: "response",
  output,
  parallel_tool_calls: true,
  tool_choice: "auto",
  tools: [],
});
const body = (output: unknown[], expected_answers: unknown[]) => ({
  responses_create_params: { input: [{ role: "user", content: "q" }] },
  response: response(...output),
  expected_answers,
});

/** A verifier's context in plain Node: no session state, and no judge (these verifiers call none). */
const noJudge: Judge = () => Promise.reject(new Error("no judge in these tests"));
const context = () => ({ sessionId: "t", state: noState, signal: new AbortController().signal, judge: noJudge });

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function verify(output: unknown[], expected: unknown[]): Promise<any> {
  const outcome = await perform(xlamFc, { kind: "verify" }, body(output, expected), context());
  return outcome.status === 200 ? outcome.body : outcome;
}
const counts = (r: { reward: number; num_expected: number; num_predicted: number; num_correct: number }) => [
  r.reward,
  r.num_expected,
  r.num_predicted,
  r.num_correct,
];

describe("NeMo Gym's tests (resources_servers/xlam_fc/tests/test_app.py), ported", () => {
  const weather = { name: "get_weather", arguments: { city: "San Francisco" } };
  const giveaways = [
    { name: "live_giveaways_by_type", arguments: { type: "beta" } },
    { name: "live_giveaways_by_type", arguments: { type: "game" } },
  ];

  it("test_sanity: the environment defines no tools (rows bring their own)", () => {
    expect(xlamFc.name).toBe("xlam_fc");
    expect(xlamFc.tools.size).toBe(0);
  });
  it("test_verify_exact_match_single_call", async () => {
    expect(counts(await verify([call("get_weather", { city: "San Francisco" })], [weather]))).toEqual([1.0, 1, 1, 1]);
  });
  it("test_verify_exact_match_multiple_calls", async () => {
    const output = [call("live_giveaways_by_type", { type: "beta" }), call("live_giveaways_by_type", { type: "game" })];
    expect(counts(await verify(output, giveaways))).toEqual([1.0, 2, 2, 2]);
  });
  it("test_verify_partial_match", async () => {
    const output = [call("live_giveaways_by_type", { type: "beta" }), call("live_giveaways_by_type", { type: "loot" })];
    expect(counts(await verify(output, giveaways))).toEqual([0.0, 2, 2, 1]);
  });
  it("test_verify_no_match", async () => {
    expect(counts(await verify([call("wrong_function", { city: "New York" })], [weather]))).toEqual([0.0, 1, 1, 0]);
  });
  it("test_verify_wrong_arguments", async () => {
    expect(counts(await verify([call("get_weather", { city: "New York" })], [weather]))).toEqual([0.0, 1, 1, 0]);
  });
  it("test_verify_no_predictions", async () => {
    expect(counts(await verify([text("I don't know how to help with that.")], [weather]))).toEqual([0.0, 1, 0, 0]);
  });
  it("test_verify_extra_arguments", async () => {
    expect(counts(await verify([call("get_weather", { city: "San Francisco", units: "celsius" })], [weather]))).toEqual([1.0, 1, 1, 1]);
  });
  it("test_verify_no_expected_no_predicted", async () => {
    expect(counts(await verify([text("Here's some information.")], []))).toEqual([1.0, 0, 0, 0]);
  });
  it("test_verify_multiple_arguments", async () => {
    const args = { symbol: "ETH/BTC", interval: "1h", time_period: 14 };
    expect(counts(await verify([call("t3ma", args)], [{ name: "t3ma", arguments: args }]))).toEqual([1.0, 1, 1, 1]);
  });
});

describe("new cases", () => {
  it("order does not matter; each predicted call matches one expected call at most", async () => {
    const expected = [
      { name: "f", arguments: { x: 1 } },
      { name: "g", arguments: {} },
    ];
    expect(counts(await verify([call("g", {}), call("f", { x: 1 })], expected))).toEqual([1.0, 2, 2, 2]);
    // A duplicate call: everything expected matched, but the counts differ.
    expect(counts(await verify([call("f", { x: 1 }), call("f", { x: 1 })], [expected[0]]))).toEqual([0.0, 1, 2, 1]);
  });

  it("a call with no expected calls scores 0", async () => {
    expect(counts(await verify([call("f", {})], []))).toEqual([0.0, 0, 1, 0]);
  });

  it("values compare as Python's == does: 14 == 14.0 == True-as-1, but '14' != 14; dicts ignore key order, lists do not", async () => {
    const expected = (args: unknown) => [{ name: "f", arguments: args }];
    expect((await verify([call("f", '{"n": 14.0}')], expected({ n: 14 }))).reward).toBe(1.0);
    expect((await verify([call("f", { flag: true })], expected({ flag: 1 }))).reward).toBe(1.0);
    expect((await verify([call("f", { n: "14" })], expected({ n: 14 }))).reward).toBe(0.0);
    expect((await verify([call("f", { d: { b: 2, a: 1 } })], expected({ d: { a: 1, b: 2 } }))).reward).toBe(1.0);
    expect((await verify([call("f", { l: [2, 1] })], expected({ l: [1, 2] }))).reward).toBe(0.0);
  });

  it("expected arguments may be a JSON string; missing or unparsable ones expect nothing", async () => {
    expect((await verify([call("f", { a: 1 })], [{ name: "f", arguments: '{"a": 1}' }])).reward).toBe(1.0);
    expect((await verify([call("f", { a: 1 })], [{ name: "f" }])).reward).toBe(1.0);
    expect((await verify([call("f", { a: 1 })], [{ name: "f", arguments: "not json" }])).reward).toBe(1.0);
  });

  it("invalid JSON arguments read as {} and still match a call expecting no arguments", async () => {
    const r = await verify([call("f", "{city: Paris")], [{ name: "f", arguments: {} }]);
    expect(r).toMatchObject({ reward: 1.0, predicted_calls: [{ name: "f", arguments: {} }] });
  });

  it("kept NeMo Gym quirk: predicted arguments are decoded twice, so double-encoded JSON still matches", async () => {
    const r = await verify([call("f", JSON.stringify(JSON.stringify({ a: 1 })))], [{ name: "f", arguments: { a: 1 } }]);
    expect(r).toMatchObject({ reward: 1.0, predicted_calls: [{ name: "f", arguments: '{"a":1}' }] });
  });

  it("Python's json accepts NaN and Infinity; they never equal anything and serialise as null (through workerd)", async () => {
    const answer = await postJson(
      `${local.url}/v1/environments/${NAME}/verify`,
      body([call("f", '{"x": NaN, "y": Infinity}')], [{ name: "f", arguments: { x: 1 } }]),
    );
    expect(answer.body).toMatchObject({ reward: 0.0, predicted_calls: [{ name: "f", arguments: { x: null, y: null } }] });
  });

  it("a missing expected name matches nothing", async () => {
    expect((await verify([call("f", {})], [{ arguments: {} }])).reward).toBe(0.0);
  });

  it("where NeMo Gym raises, the verify fails too (500), through workerd", async () => {
    const post = (output: unknown[], expected: unknown[]) => postJson(`${local.url}/v1/environments/${NAME}/verify`, body(output, expected));
    // Expected arguments decoding to a non-object: '.items()' raises.
    expect((await post([call("f", {})], [{ name: "f", arguments: "[1]" }])).status).toBe(500);
    // Predicted arguments are decoded twice; a second decode to a list holding the key: indexing a list by name raises.
    expect((await post([call("f", JSON.stringify('["a"]'))], [{ name: "f", arguments: { a: 1 } }])).status).toBe(500);
    // A second decode to a number: 'in' raises.
    expect((await post([call("f", JSON.stringify("5"))], [{ name: "f", arguments: { a: 1 } }])).status).toBe(500);
    // A first decode to a list or number becomes {} on the second pass: simply no match, or a match of no arguments.
    expect((await post([call("f", '["a"]')], [{ name: "f", arguments: { a: 1 } }])).body.reward).toBe(0.0);
    expect((await post([call("f", "5")], [{ name: "f", arguments: {} }])).body.reward).toBe(1.0);
  });
});

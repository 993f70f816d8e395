// single_step_tool_use_with_argument_comparison: recorded rollouts in workerd, NeMo Gym's tests ported, edge cases.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import environment, { singleStepToolUseEnvironment } from "../../environments/single_step_tool_use_with_argument_comparison/index.js";
import {
  type Action,
  ActionComparator,
  Category,
  type ComparatorConfig,
  findMaximumMatching,
  type FunctionCallAction,
  toolCalls,
} from "../../environments/single_step_tool_use_with_argument_comparison/compare.js";
import { loadsPython } from "../../environments/single_step_tool_use_with_argument_comparison/python.js";
import type { Judge, SimpleEnvironment } from "../../environments/sdk/index.js";
import { noState, perform } from "../../environments/sdk/perform.js";
import { fixtureRollouts } from "../helpers/fixtures.js";
import { postJson, startTestLocal } from "../helpers/local.js";

const NAME = "single_step_tool_use_with_argument_comparison";
let local: Local;
beforeAll(async () => {
  local = await startTestLocal({ environments: [NAME] });
});
afterAll(async () => {
  await local?.stop();
});

describe("parity with NeMo Gym's recorded rollouts (workerd)", () => {
  it.each(fixtureRollouts(NAME).map((record, i) => [i, record] as const))(
    "recorded rollout %i: same reward, category and expected_action",
    async (_i, record) => {
      const { reward, category, ...request } = record;
      const answer = await postJson(`${local.url}/v1/environments/${NAME}/verify`, request);
      expect(answer.status).toBe(200);
      expect(answer.body.reward).toBe(reward);
      expect(answer.body.category).toBe(category);
      expect(answer.body.expected_action).toEqual(record.expected_action);
    },
  );

  it("the recordings cover both rewards and three categories", () => {
    const records = fixtureRollouts(NAME);
    expect(new Set(records.map((r) => r.reward))).toEqual(new Set([0.0, 1.0]));
    expect(new Set(records.map((r) => r.category)).size).toBe(3);
  });

  it("a body without expected_action is a 400 naming the field", async () => {
    const { expected_action: _e, reward: _r, category: _c, ...request } = fixtureRollouts(NAME)[0]!;
    const answer = await postJson(`${local.url}/v1/environments/${NAME}/verify`, request);
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toContain("expected_action");
  });
});

const noJudge: Judge = () => Promise.reject(new Error("no judge in these tests"));
const context = () => ({ sessionId: "t", state: noState, signal: new AbortController().signal, judge: noJudge });

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function verify(body: Record<string, unknown>, env: SimpleEnvironment = environment): Promise<any> {
  const outcome = await perform(env, { kind: "verify" }, body, context());
  return outcome.status === 200 ? outcome.body : outcome;
}

const response = (...output: unknown[]) => ({
  id: "r",
  created_at: 1001,
  model: "test_model",
  object: "response",
  output,
  parallel_tool_calls: false,
  tool_choice: "auto",
  tools: [],
});
const toolCall = (name: string, args: string, call_id = "c") => ({ type: "function_call", call_id, name, arguments: args });
const message = (text: string) => ({
  id: "m",
  type: "message",
  role: "assistant",
  status: "completed",
  content: [{ annotations: [], text, type: "output_text" }],
});
const reasoning = { id: "reasoning_item", type: "reasoning", summary: [{ type: "summary_text", text: "this is reasoning" }] };
const body = (expected_action: unknown, ...output: unknown[]) => ({
  responses_create_params: { input: [{ role: "user", content: "Set the views metric count to 75." }] },
  response: response(...output),
  expected_action,
});

const call = (query: string, name = "search"): FunctionCallAction => ({ type: "function_call", name, arguments: JSON.stringify({ query }) });
const batch = (...calls: FunctionCallAction[]): Action => ({ type: "function_call_batch", calls });
const comparator = (overrides: Partial<ComparatorConfig> = {}) =>
  new ActionComparator({
    word_count_similarity_threshold: 0.1,
    floating_point_comparison_threshold: 1e-6,
    parallel_tool_call_rewarding: true,
    allow_subset: false,
    allow_superset: false,
    parallel_tool_call_reward_mode: "binary_strict",
    ...overrides,
  });
const outcome = (r: { reward: number; category: string }) => [r.reward, r.category];
const args = (text: string) => loadsPython(text);

describe("NeMo Gym's tests/test_app.py, ported", () => {
  const expected = { type: "function_call", name: "set_metric_count", arguments: JSON.stringify({ metric_name: "views", metric_count: 75 }) };

  it("test_verify: no output, type mismatch, match, chat for a call, chat for chat, call for chat", async () => {
    const cases: [unknown, unknown, number, string][] = [
      [expected, reasoning, 0.0, Category.NO_ACTION_FOUND],
      [expected, toolCall("set_metric_count", JSON.stringify({ metric_name: "views", metric_count: "75" })), 0.0, Category.ARGUMENT_VALUE_TYPE_DIFFERENT],
      [expected, toolCall("set_metric_count", expected.arguments), 1.0, Category.EXPECTED_TOOL_CALL],
      [expected, message("How can I help you?"), 0.0, Category.NO_EXPECTED_TOOL_CALL],
      [{ type: "message", content: "This is a message." }, message("How can I help you?"), 1.0, Category.EXPECTED_CHAT_MESSAGE_FOUND],
      [{ type: "message", content: "This is a message." }, toolCall("set_metric_count", expected.arguments), 0.0, Category.NO_EXPECTED_CHAT_MESSAGE],
    ];
    for (const [action, item, reward, category] of cases) {
      const request = body(action, item);
      const answer = await verify(request);
      expect([answer.reward, answer.category]).toEqual([reward, category]);
      expect(answer.expected_action).toEqual(action);
      expect(answer.response).toEqual(request.response);
    }
  });

  const parallel = (actual: string[], expectedQueries: string[]) =>
    body(batch(...expectedQueries.map((q) => call(q))), ...actual.map((q, i) => toolCall("search", JSON.stringify({ query: q }), `call_${i}`)));

  it("test_verify_parallel_tool_calls: order ignored; surplus free by default, disqualifying with counting on", async () => {
    const counting = singleStepToolUseEnvironment({ word_count_similarity_threshold: 0.1, parallel_tool_call_rewarding: true });
    for (const env of [environment, counting]) {
      const answer = await verify(parallel(["beta", "alpha"], ["alpha", "beta"]), env);
      expect([answer.reward, answer.category]).toEqual([1.0, Category.EXPECTED_TOOL_CALL_BATCH]);
    }
    const surplus = parallel(["alpha", "beta", "gamma"], ["alpha", "beta"]);
    expect(outcome(await verify(surplus))).toEqual([1.0, Category.EXPECTED_TOOL_CALL_BATCH]);
    expect(outcome(await verify(surplus, counting))).toEqual([0.0, Category.FUNCTION_CALL_BATCH_LENGTH_DIFFERENT]);
  });

  it("test_verify_parallel_tool_calls_with_f1_reward_mode: exact set 1.0; three junk calls 4/7", async () => {
    const f1 = singleStepToolUseEnvironment({
      word_count_similarity_threshold: 0.1,
      parallel_tool_call_rewarding: true,
      allow_subset: true,
      allow_superset: true,
      parallel_tool_call_reward_mode: "f1",
    });
    expect(outcome(await verify(parallel(["beta", "alpha"], ["alpha", "beta"]), f1))).toEqual([1.0, Category.EXPECTED_TOOL_CALL_BATCH]);
    const junk = await verify(parallel(["alpha", "beta", "x", "y", "z"], ["alpha", "beta"]), f1);
    expect(junk.reward).toBeCloseTo(4 / 7, 12);
    expect(junk.category).toBe(Category.FUNCTION_CALL_BATCH_LENGTH_DIFFERENT);
  });
});

describe("NeMo Gym's tests/common/test_verification_utils.py, ported", () => {
  const on = comparator();

  it("test_get_tool_calls", () => {
    expect(toolCalls(call("alpha"))).toEqual([call("alpha")]);
    expect(toolCalls(batch(call("alpha"), call("beta")))).toEqual([call("alpha"), call("beta")]);
    expect(toolCalls({ type: "message", content: "hello" })).toEqual([]);
  });

  it("test_compare_tool_call", () => {
    const object = { first: "one", second: 2, third: true, fourth: [1, "element2"], fifth: { inner1: "value1", inner2: false } };
    const expected: FunctionCallAction = { type: "function_call", name: "send", arguments: JSON.stringify(object) };
    const compare = (name: string, a: string) => outcome(on.compareToolCall(expected, { type: "function_call", name, arguments: a }));
    expect(compare("receive", expected.arguments)).toEqual([0.0, Category.UNEXPECTED_TOOL]);
    expect(compare("send", "first=one")).toEqual([0.0, Category.ARGUMENTS_DECODE_ERROR]);
    expect(compare("send", expected.arguments)).toEqual([1.0, Category.EXPECTED_TOOL_CALL]);
    expect(compare("send", JSON.stringify({ ...object, fourth: [1, "element3"] }))).toEqual([0.0, Category.ARGUMENT_VALUE_DIFFERENT]);
    expect(compare("send", JSON.stringify({ ...object, fifth: { inner: "value1", inner2: false } }))).toEqual([0.0, Category.ARGUMENT_OBJECT_KEYS_DIFFERENT]);
    expect(compare("send", JSON.stringify({ ...object, fourth: [1] }))).toEqual([0.0, Category.ARGUMENT_LIST_LENGTH_DIFFERENT]);
  });

  it("test_compare_action_dispatches_on_expected_type", () => {
    const msg: Action = { type: "message", content: "This is a message." };
    expect(outcome(on.compareAction(msg, { type: "message", content: "A completely different message." }))).toEqual([
      1.0,
      Category.EXPECTED_CHAT_MESSAGE_FOUND,
    ]);
    expect(outcome(on.compareAction(msg, call("alpha")))).toEqual([0.0, Category.NO_EXPECTED_CHAT_MESSAGE]);
    expect(outcome(on.compareAction(call("alpha"), msg))).toEqual([0.0, Category.NO_EXPECTED_TOOL_CALL]);
    expect(outcome(on.compareAction(batch(call("alpha"), call("beta")), msg))).toEqual([0.0, Category.NO_EXPECTED_TOOL_CALL]);
    expect(outcome(on.compareAction(call("alpha"), call("alpha")))).toEqual([1.0, Category.EXPECTED_TOOL_CALL]);
  });

  it("test_compare_action_rejects_unsupported_action: an expected action of another type is a 400 at the request", async () => {
    const answer = await verify(body({ type: "handoff" }, message("hi")));
    expect(answer.status).toBe(400);
    expect(answer.body.error.issues[0].path).toEqual(["expected_action", "type"]);
  });

  it("test_compare_tool_calls_ignores_tool_call_order", () => {
    expect(outcome(on.compareAction(batch(call("alpha"), call("beta")), batch(call("beta"), call("alpha"))))).toEqual([1.0, Category.EXPECTED_TOOL_CALL_BATCH]);
  });

  it("test_compare_tool_calls_rejects_mismatched_counts_by_default", () => {
    const expected = batch(call("alpha"), call("beta"));
    expect(outcome(on.compareAction(expected, batch(call("alpha"), call("beta"), call("gamma"))))).toEqual([
      0.0,
      Category.FUNCTION_CALL_BATCH_LENGTH_DIFFERENT,
    ]);
    expect(outcome(on.compareAction(expected, call("alpha")))).toEqual([0.0, Category.FUNCTION_CALL_BATCH_LENGTH_DIFFERENT]);
  });

  it("test_rewarding_off_ignores_the_call_count", () => {
    const off = comparator({ parallel_tool_call_rewarding: false });
    const expected = call("alpha");
    for (let surplus = 1; surplus < 4; surplus++) {
      const actual = batch(expected, ...Array.from({ length: surplus }, (_, i) => call(`junk${i}`)));
      expect(outcome(off.compareAction(expected, actual))).toEqual([1.0, Category.EXPECTED_TOOL_CALL]);
    }
    expect(outcome(off.compareAction(expected, batch(call("junk"), expected)))).toEqual([1.0, Category.EXPECTED_TOOL_CALL]);
    const expectedBatch = batch(call("alpha"), call("beta"));
    expect(outcome(off.compareAction(expectedBatch, batch(call("beta"), call("alpha"), call("junk"))))).toEqual([1.0, Category.EXPECTED_TOOL_CALL_BATCH]);
    expect(off.compareAction(expectedBatch, batch(call("alpha"), call("junk"))).reward).toBe(0.0);
    const offF1 = comparator({ parallel_tool_call_rewarding: false, parallel_tool_call_reward_mode: "f1" });
    expect(offF1.compareAction(expected, batch(expected, call("j1"), call("j2"))).reward).toBe(1.0);
    expect(outcome(off.compareAction(expected, batch(call("junk"), call("other"))))).toEqual([0.0, Category.ARGUMENT_VALUE_DIFFERENT]);
    expect(outcome(off.compareAction(expected, { type: "message", content: "hi" }))).toEqual([0.0, Category.NO_EXPECTED_TOOL_CALL]);
  });

  it("test_rewarding_on_constrains_the_call_count", () => {
    expect(outcome(on.compareAction(call("alpha"), batch(call("alpha"), call("junk"))))).toEqual([0.0, Category.FUNCTION_CALL_BATCH_LENGTH_DIFFERENT]);
    expect(outcome(on.compareAction(batch(call("alpha")), batch(call("alpha"), call("junk"))))).toEqual([0.0, Category.FUNCTION_CALL_BATCH_LENGTH_DIFFERENT]);
  });

  it("test_f1_charges_for_surplus_when_rewarding_is_on", () => {
    const c = comparator({ allow_superset: true, parallel_tool_call_reward_mode: "f1" });
    expect(c.compareAction(call("alpha"), batch(call("alpha"), call("j1"), call("j2"))).reward).toBe(0.5);
  });

  it.each(["binary_strict", "fractional", "f1"] as const)("test_cardinality_gate_admits_only_configured_shapes[%s]", (mode) => {
    const expected = batch(call("alpha"), call("beta"));
    const tooFew = call("alpha");
    const tooMany = batch(call("alpha"), call("beta"), call("gamma"));
    const rejected = [0.0, Category.FUNCTION_CALL_BATCH_LENGTH_DIFFERENT];
    const subset = comparator({ allow_subset: true, parallel_tool_call_reward_mode: mode });
    expect(subset.compareAction(expected, tooFew).reward).toBeGreaterThan(0.0);
    expect(outcome(subset.compareAction(expected, tooMany))).toEqual(rejected);
    const superset = comparator({ allow_superset: true, parallel_tool_call_reward_mode: mode });
    expect(superset.compareAction(expected, tooMany).reward).toBeGreaterThan(0.0);
    expect(outcome(superset.compareAction(expected, tooFew))).toEqual(rejected);
    const permissive = comparator({ allow_subset: true, allow_superset: true, parallel_tool_call_reward_mode: mode });
    expect(permissive.compareAction(expected, tooFew).reward).toBeGreaterThan(0.0);
    expect(permissive.compareAction(expected, tooMany).reward).toBeGreaterThan(0.0);
  });

  it.each(["binary_strict", "fractional"] as const)("test_gated_shapes_get_full_credit_without_f1[%s]", (mode) => {
    const expected = batch(call("alpha"), call("beta"));
    const full = [1.0, Category.EXPECTED_TOOL_CALL_BATCH];
    expect(outcome(comparator({ allow_subset: true, parallel_tool_call_reward_mode: mode }).compareAction(expected, call("alpha")))).toEqual(full);
    const spam = batch(call("alpha"), call("beta"), ...Array.from({ length: 20 }, (_, i) => call(`junk${i}`)));
    expect(outcome(comparator({ allow_superset: true, parallel_tool_call_reward_mode: mode }).compareAction(expected, spam))).toEqual(full);
  });

  it.each([0, 1, 2, 3])("test_fractional_scores_the_matched_share_of_required_calls[%i]", (matched) => {
    const c = comparator({ parallel_tool_call_reward_mode: "fractional" });
    const actual = [...["alpha", "beta", "gamma"].slice(0, matched).map((q) => call(q)), ...Array.from({ length: 3 - matched }, (_, i) => call(`wrong${i}`))];
    expect(c.compareAction(batch(call("alpha"), call("beta"), call("gamma")), batch(...actual)).reward).toBeCloseTo(matched / 3, 12);
  });

  it("test_f1_rewards_only_an_exact_set_of_calls", () => {
    const expected = batch(call("alpha"), call("beta"));
    const f1 = { parallel_tool_call_reward_mode: "f1" } as const;
    expect(outcome(comparator(f1).compareAction(expected, batch(call("beta"), call("alpha"))))).toEqual([1.0, Category.EXPECTED_TOOL_CALL_BATCH]);
    expect(comparator(f1).compareAction(expected, batch(call("alpha"), call("wrong"))).reward).toBe(0.5);
    const under = comparator({ allow_subset: true, ...f1 }).compareAction(expected, call("alpha"));
    expect(under.reward).toBeCloseTo(2 / 3, 12);
    expect(under.category).toBe(Category.FUNCTION_CALL_BATCH_LENGTH_DIFFERENT);
    const spam = batch(call("alpha"), call("beta"), ...Array.from({ length: 20 }, (_, i) => call(`junk${i}`)));
    const spammed = comparator({ allow_superset: true, ...f1 }).compareAction(expected, spam);
    expect(spammed.reward).toBeCloseTo(1 / 6, 12);
    expect(spammed.category).toBe(Category.FUNCTION_CALL_BATCH_LENGTH_DIFFERENT);
  });

  it("test_failure_category_describes_an_unmatched_call", () => {
    const expected = batch(call("alpha"), call("beta", "lookup"));
    expect(outcome(on.compareAction(expected, batch(call("alpha"), call("beta", "other"))))).toEqual([0.0, Category.UNEXPECTED_TOOL]);
    expect(outcome(on.compareAction(expected, batch(call("alpha"), call("wrong", "lookup"))))).toEqual([0.0, Category.ARGUMENT_VALUE_DIFFERENT]);
  });

  it("test_matching_survives_a_fuzzy_non_transitive_relation", () => {
    const c = comparator({ word_count_similarity_threshold: 0.3 });
    expect(outcome(c.compareAction(batch(call("aa bb cc dd"), call("aa bb")), batch(call("aa bb"), call("cc dd"))))).toEqual([
      1.0,
      Category.EXPECTED_TOOL_CALL_BATCH,
    ]);
  });

  it("test_find_maximum_matching_uses_augmenting_paths", () => {
    expect(findMaximumMatching([[0, 1], [0]])).toEqual(
      new Map([
        [0, 1],
        [1, 0],
      ]),
    );
    expect(findMaximumMatching([[], []])).toEqual(new Map());
    expect(findMaximumMatching([[0], [0]])).toEqual(new Map([[0, 0]]));
  });

  it("test_compare_tool_call_arguments", () => {
    const cmp = (e: string, a: string) => on.compareArguments(args(e), args(a));
    expect(cmp("null", '"None"')).toEqual([false, Category.ARGUMENT_VALUE_TYPE_DIFFERENT]);
    expect(cmp("1.0", String(1.0 + 1e-9))).toEqual([true, null]);
    expect(cmp("1.0", "2.0")).toEqual([false, Category.ARGUMENT_VALUE_DIFFERENT]);
    expect(cmp('"one"', '"one"')).toEqual([true, null]);
    expect(cmp('"one"', '"two"')).toEqual([false, Category.ARGUMENT_VALUE_DIFFERENT]);
    expect(cmp('"one two three"', '"one two three"')).toEqual([true, null]);
    expect(cmp('"one two three"', '"four five six"')).toEqual([false, Category.ARGUMENT_VALUE_DIFFERENT]);
    expect(cmp("true", "true")).toEqual([true, null]);
    expect(cmp("1", "2")).toEqual([false, Category.ARGUMENT_VALUE_DIFFERENT]);
  });
});

describe("Python's semantics where the comparison depends on them (edge cases of our own)", () => {
  const on = comparator();
  const cmp = (e: string, a: string) => on.compareArguments(args(e), args(a));

  it("bool is an int: expected 1 accepts true, expected true rejects 1, int and float are different types", () => {
    expect(cmp("1", "true")).toEqual([true, null]);
    expect(cmp("0", "false")).toEqual([true, null]);
    expect(cmp("true", "1")).toEqual([false, Category.ARGUMENT_VALUE_TYPE_DIFFERENT]);
    expect(cmp("1", "1.0")).toEqual([false, Category.ARGUMENT_VALUE_TYPE_DIFFERENT]);
    expect(cmp("1.0", "1")).toEqual([false, Category.ARGUMENT_VALUE_TYPE_DIFFERENT]);
  });

  it("integers past 2^53 compare exactly; NaN and Infinity never match a float", () => {
    expect(cmp("9007199254740993", "9007199254740992")).toEqual([false, Category.ARGUMENT_VALUE_DIFFERENT]);
    expect(cmp("9007199254740993", "9007199254740993")).toEqual([true, null]);
    expect(cmp("1.0", "NaN")).toEqual([false, Category.ARGUMENT_VALUE_DIFFERENT]);
    expect(cmp("Infinity", "Infinity")).toEqual([false, Category.ARGUMENT_VALUE_DIFFERENT]);
  });

  it("dict keys keep JSON order: the first differing key (not a JS-reordered integer key) names the category", () => {
    expect(cmp('{"b": [1], "1": "x"}', '{"b": [1, 2], "1": 5}')).toEqual([false, Category.ARGUMENT_LIST_LENGTH_DIFFERENT]);
    expect(cmp('{"a": 1, "a": 2}', '{"a": 2}')).toEqual([true, null]);
  });

  it("strings: one word must be equal; longer ones lower-cased and split on Python whitespace (U+0085 yes, BOM no)", () => {
    expect(cmp('"Paris"', '"paris"')).toEqual([false, Category.ARGUMENT_VALUE_DIFFERENT]);
    expect(cmp('"New York City"', '"NEW\\u0085york"')).toEqual([true, null]);
    // 1 shared word of 2 + 2 = 0.25 ≥ 0.1; with a BOM glued on, "\ufeffyork" shares nothing.
    expect(cmp('"new york"', '"boston york"')).toEqual([true, null]);
    expect(cmp('"new york"', '"boston \\ufeffyork"')).toEqual([false, Category.ARGUMENT_VALUE_DIFFERENT]);
    expect(cmp('"ΣΊΣΥΦΟΣ ΟΔΌΣ"', '"σίσυφος οδός"')).toEqual([true, null]);
    expect(cmp('""', '""')).toEqual([true, null]);
    expect(cmp('""', '" "')).toEqual([false, Category.ARGUMENT_VALUE_DIFFERENT]);
  });

  it("empty text still counts as a chat message; a message with no output_text is no action", async () => {
    expect(outcome(await verify(body({ type: "message", content: "x" }, message(""))))).toEqual([1.0, Category.EXPECTED_CHAT_MESSAGE_FOUND]);
    const noText = { type: "message", role: "assistant", content: [{ type: "refusal", refusal: "no" }] };
    expect(outcome(await verify(body({ type: "message", content: "x" }, noText)))).toEqual([0.0, Category.NO_ACTION_FOUND]);
  });

  it("unparseable actual arguments score 0 with the decode category; unparseable expected ones fail the request", async () => {
    const expected = { type: "function_call", name: "f", arguments: "{}" };
    expect(outcome(await verify(body(expected, toolCall("f", "{'a': 1}"))))).toEqual([0.0, Category.ARGUMENTS_DECODE_ERROR]);
    const broken = await verify(body({ ...expected, arguments: "not json" }, toolCall("f", "{}")));
    expect(broken.status).toBe(500);
  });

  it("an empty batch of expected calls is a 400 (NeMo Gym's min_length=1)", async () => {
    const answer = await verify(body({ type: "function_call_batch", calls: [] }, toolCall("f", "{}")));
    expect(answer.status).toBe(400);
    expect(answer.body.error.issues[0].path).toEqual(["expected_action", "calls"]);
  });
});

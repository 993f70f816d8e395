// Parity with NeMo Gym: re-verifying each recorded (row, response) gives NeMo Gym's recorded reward and fields.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import { fixtureRollouts, fixtureRows, inputKey } from "../helpers/fixtures.js";
import { postJson, startTestLocal } from "../helpers/local.js";

let local: Local;
beforeAll(async () => {
  local = await startTestLocal({
    environments: ["example_single_tool_call", "example_multi_step", "example_session_state_mgmt", "example_tool_call_multireward"],
  });
});
afterAll(async () => {
  await local?.stop();
});

/** A recorded rollout with its example row's task fields, which NeMo Gym's record does not always keep. */
function withTaskFields(name: string, record: Record<string, unknown>): Record<string, unknown> {
  const row = fixtureRows(name).find((r) => inputKey(r) === inputKey(record));
  if (!row) throw new Error(`no example row of ${name} matches a recorded rollout`);
  const { responses_create_params: _params, ...task } = row;
  return { ...task, ...record };
}

/** The verifier's own fields of a record: everything but the request NeMo Gym echoes back. */
function verdict(record: Record<string, unknown>): Record<string, unknown> {
  const { responses_create_params: _p, response: _r, _ng_task_index: _t, _ng_rollout_index: _ri, agent_ref: _a, ...rest } = record;
  return rest;
}

const STATELESS = ["example_single_tool_call", "example_multi_step", "example_tool_call_multireward"];

describe.each(STATELESS)("%s", (name) => {
  const records = fixtureRollouts(name);
  it.each(records.map((record, i) => [i, record] as const))("recorded rollout %i: same reward and fields as NeMo Gym", async (_i, record) => {
    const request = withTaskFields(name, record);
    const { reward: _reward, reward_components: _components, ...verifyRequest } = request;
    const answer = await postJson(`${local.url}/v1/environments/${name}/verify`, verifyRequest);
    expect(answer.status).toBe(200);
    expect(answer.body.reward).toBe(record.reward);
    for (const [key, value] of Object.entries(verdict(record))) {
      if (key in request && !(key in verdict(answer.body))) continue;
      expect(answer.body[key], key).toEqual(value);
    }
  });
});

describe("example_session_state_mgmt", () => {
  const name = "example_session_state_mgmt";
  it.each(fixtureRollouts(name).map((record, i) => [i, record] as const))(
    "recorded rollout %i: replaying its tool calls gives the recorded outputs and reward",
    async (_i, record) => {
      const request = withTaskFields(name, record);
      const base = `${local.url}/v1/environments/${name}`;
      const seeded = await postJson(`${base}/seed_session`, request);
      const headers = { "x-session-id": seeded.headers.get("x-session-id")! };
      const output = (record.response as { output: Record<string, unknown>[] }).output;
      const outputs = new Map(output.filter((o) => o.type === "function_call_output").map((o) => [o.call_id, o.output]));
      for (const item of output.filter((o) => o.type === "function_call")) {
        const answer = await postJson(`${base}/${item.name}`, JSON.parse(item.arguments as string), headers);
        expect(answer.body).toEqual(JSON.parse(outputs.get(item.call_id) as string));
      }
      const { reward: _reward, ...verifyRequest } = request;
      const verified = await postJson(`${base}/verify`, verifyRequest, headers);
      expect(verified.body.reward).toBe(record.reward);
    },
  );
});

describe("NeMo Gym's own verifier tests for example_tool_call_multireward, ported", () => {
  const tools = [
    {
      type: "function",
      name: "get_weather",
      description: "Get the current weather for a city.",
      parameters: { type: "object", properties: { city: { type: "string", description: "" } }, required: ["city"], additionalProperties: false },
      strict: true,
    },
  ];
  const call = (name: string, args: string) => ({ call_id: "call_1", name, arguments: args, type: "function_call" });
  const text = (t: string) => ({
    id: "msg_1",
    content: [{ annotations: [], text: t, type: "output_text" }],
    role: "assistant",
    status: "completed",
    type: "message",
  });
  const verify = async (output: unknown[], expected_call: unknown = { name: "get_weather", arguments: { city: "San Francisco" } }) =>
    (
      await postJson(`${local.url}/v1/environments/example_tool_call_multireward/verify`, {
        responses_create_params: { input: [{ role: "user", content: "weather in San Francisco?" }], tools },
        response: { id: "resp_test", created_at: 0, model: "dummy", object: "response", output, parallel_tool_calls: true, tool_choice: "auto", tools: [] },
        expected_call,
      })
    ).body;

  it("perfect: all three components", async () => {
    const r = await verify([call("get_weather", JSON.stringify({ city: "San Francisco" }))]);
    expect(r.reward_components).toEqual({ correctness: 1, schema_valid: 1, format: 1 });
    expect(r.reward).toBe(3);
  });
  it("wrong city keeps schema and format", async () => {
    const r = await verify([call("get_weather", JSON.stringify({ city: "New York" }))]);
    expect(r.reward_components).toEqual({ correctness: 0, schema_valid: 1, format: 1 });
    expect(r.reward).toBe(2);
  });
  it("a missing required parameter drops schema", async () => {
    const r = await verify([call("get_weather", "{}")]);
    expect([r.correctness, r.schema_valid, r.format]).toEqual([0, 0, 1]);
  });
  it("invalid JSON arguments drop schema", async () => {
    const r = await verify([call("get_weather", "{not valid json")]);
    expect([r.schema_valid, r.format]).toEqual([0, 1]);
  });
  it("extra text drops format", async () => {
    const r = await verify([call("get_weather", JSON.stringify({ city: "San Francisco" })), text("Here you go!")]);
    expect([r.correctness, r.schema_valid, r.format]).toEqual([1, 1, 0]);
  });
  it("two calls drop format", async () => {
    const c = call("get_weather", JSON.stringify({ city: "San Francisco" }));
    expect((await verify([c, c])).format).toBe(0);
  });
  it("same total, different composition", async () => {
    const wrongCity = await verify([call("get_weather", JSON.stringify({ city: "New York" }))]);
    const withText = await verify([call("get_weather", JSON.stringify({ city: "San Francisco" })), text("Done.")]);
    expect(wrongCity.reward).toBe(2);
    expect(withText.reward).toBe(2);
    expect(wrongCity.reward_components).not.toEqual(withText.reward_components);
  });
  it("new case: no expected call scores no correctness; integer arguments compare as Python does (1 == 1.0)", async () => {
    expect((await verify([call("get_weather", JSON.stringify({ city: "San Francisco" }))], {})).correctness).toBe(0);
    const r = await verify([call("get_weather", JSON.stringify({ city: "Paris", days: 1.0 }))], { name: "get_weather", arguments: { city: "Paris", days: 1 } });
    expect(r.correctness).toBe(1);
  });
});

describe("example_multi_step: new cases", () => {
  const response = (args: string) => ({
    id: "r",
    object: "response",
    created_at: 0,
    model: "m",
    output: [{ type: "function_call", call_id: "c", name: "extract_synonym_values", arguments: args }],
  });
  const verify = async (args: string) =>
    (
      await postJson(`${local.url}/v1/environments/example_multi_step/verify`, {
        responses_create_params: { input: "q" },
        expected_synonym_values: [711, 407],
        minefield_label: "Hot",
        minefield_label_value: 299,
        response: response(args),
      })
    ).body;

  it("right values in the wrong order: an order-following failure with full overlap", async () => {
    const r = await verify(JSON.stringify({ synonym_values: [407, 711] }));
    expect(r).toMatchObject({ reward: 0, accuracy: false, set_overlap: 1, order_instruction_following_failure: true });
  });
  it("the minefield value counts as a hit", async () => {
    const r = await verify(JSON.stringify({ synonym_values: [299, 711] }));
    expect(r).toMatchObject({ reward: 0, original_term_minefield_hit: true, set_overlap: 0.5 });
  });
  it("malformed arguments extract nothing instead of crashing", async () => {
    const r = await verify("{synonym_values: [711");
    expect(r).toMatchObject({ reward: 0, parsed_synonym_values: [], set_overlap: 0 });
  });
  it("get_synonym_value is the sum of the code points", async () => {
    const r = await postJson(`${local.url}/v1/environments/example_multi_step/get_synonym_value`, { synonym: "Blazing" });
    expect(r.body).toEqual({ synonym_value: 711 });
  });
});

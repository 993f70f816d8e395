// /run end to end through the real Workers: gateway → agent → model-proxy → simulator → resources, and back.
import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import { fixtureRows } from "../helpers/fixtures.js";
import { postJson, startTestLocal } from "../helpers/local.js";

let local: Local;
beforeAll(async () => {
  local = await startTestLocal({ vars: { modelProxy: { MODEL_MAX_RETRIES: "1" } } });
});
afterAll(async () => {
  await local?.stop();
});
beforeEach(() => local.simulator!.reset());

const run = (row: unknown, query = "") => postJson(`${local.url}/run${query}`, row);

describe("POST /run with the simulator's policy", () => {
  it.each(["example_single_tool_call", "example_multi_step", "example_session_state_mgmt", "example_tool_call_multireward"])(
    "%s: the first example row comes back scored, with its trajectory and ids",
    async (name) => {
      const row = fixtureRows(name)[0]!;
      const answer = await run(row, `?environment=${name}`);
      expect(answer.status).toBe(200);
      expect(typeof answer.body.reward).toBe("number");
      expect(answer.body.agent_ref).toEqual({ type: "responses_api_agents", name: `${name}_simple_agent` });
      expect(typeof answer.body._ng_rollout_id).toBe("string");
      const output = answer.body.response.output as { type: string }[];
      expect(output.some((item) => item.type === "function_call")).toBe(true);
      expect(output.filter((i) => i.type === "function_call").length).toBe(output.filter((i) => i.type === "function_call_output").length);
      expect(output[output.length - 1]!.type).toBe("message");
      expect(answer.body.response.usage.total_tokens).toBeGreaterThan(0);
      // Task fields come back untouched, as NeMo Gym's verify response keeps them.
      for (const [key, value] of Object.entries(row)) if (key !== "responses_create_params") expect(answer.body[key]).toEqual(value);
    },
  );

  it("finds the environment from a NeMo Gym agent_ref", async () => {
    const row = { ...fixtureRows("example_single_tool_call")[0]!, agent_ref: { type: "responses_api_agents", name: "example_single_tool_call_simple_agent" } };
    const answer = await run(row);
    expect(answer.status).toBe(200);
    expect(answer.body.reward).toBe(1);
  });
});

describe("POST /run with scripted model replies", () => {
  const counterRow = { ...fixtureRows("example_session_state_mgmt")[1]! }; // add 4 then add 5, initial 6, expected 15

  it("runs a multi-turn stateful rollout in order and scores it from the session's state", async () => {
    local.simulator!.script(
      { tool_calls: [{ name: "increment_counter", arguments: { count: 4 } }] },
      { tool_calls: [{ name: "increment_counter", arguments: { count: 5 } }] },
      { tool_calls: [{ name: "get_counter_value", arguments: {} }] },
      { content: "The count is 15." },
    );
    const answer = await run(counterRow, "?environment=example_session_state_mgmt");
    expect(answer.status).toBe(200);
    expect(answer.body.reward).toBe(1);
    const output = answer.body.response.output as Record<string, unknown>[];
    expect(output.map((i) => i.type)).toEqual([
      "function_call",
      "function_call_output",
      "function_call",
      "function_call_output",
      "function_call",
      "function_call_output",
      "message",
    ]);
    expect(JSON.parse(output[5]!.output as string)).toEqual({ count: 15 });
    // Each model call saw the whole conversation so far, tool results included.
    const requests = local.simulator!.requests;
    expect(requests).toHaveLength(4);
    const lastMessages = requests[3]!.messages as { role: string; content?: unknown }[];
    expect(lastMessages.filter((m) => m.role === "tool")).toHaveLength(3);
  });

  it("scores 0 when the model adds the wrong numbers", async () => {
    local.simulator!.script({ tool_calls: [{ name: "increment_counter", arguments: { count: 3 } }] }, { content: "Done." });
    const answer = await run(counterRow, "?environment=example_session_state_mgmt");
    expect(answer.body.reward).toBe(0);
  });

  it("stops at max_steps", async () => {
    const call = { tool_calls: [{ name: "get_weather", arguments: { city: "Paris" } }] };
    local.simulator!.script(call, call, call, call);
    const answer = await run(fixtureRows("example_single_tool_call")[0], "?environment=example_single_tool_call&max_steps=2");
    expect(answer.status).toBe(200);
    expect(local.simulator!.requests).toHaveLength(2);
    expect((answer.body.response.output as { type: string }[]).filter((i) => i.type === "function_call")).toHaveLength(2);
  });

  it("hands invalid tool arguments back to the model as the tool's output, and goes on", async () => {
    local.simulator!.script(
      { tool_calls: [{ name: "increment_counter", arguments: "{count: 4" }] },
      { tool_calls: [{ name: "increment_counter", arguments: { count: "four" } }] },
      { tool_calls: [{ name: "reset_everything", arguments: {} }] },
      { content: "I could not do it." },
    );
    const answer = await run(counterRow, "?environment=example_session_state_mgmt");
    expect(answer.status).toBe(200);
    const outputs = (answer.body.response.output as Record<string, unknown>[]).filter((i) => i.type === "function_call_output").map((i) => String(i.output));
    expect(outputs[0]).toContain("Invalid tool call arguments");
    expect(JSON.parse(outputs[1]!).error.issues[0].path).toEqual(["count"]);
    expect(JSON.parse(outputs[2]!).error.code).toBe("unknown_tool");
    expect(answer.body.reward).toBe(0);
  });

  it("a model that keeps failing fails the rollout with a clear class, after bounded retries", async () => {
    local.simulator!.script({ status: 503, error: "overloaded" }, { status: 503, error: "overloaded" }, { status: 503, error: "overloaded" });
    const answer = await run(fixtureRows("example_single_tool_call")[0], "?environment=example_single_tool_call");
    expect(answer.status).toBe(502);
    expect(answer.body.error.code).toBe("model_error");
    expect(answer.body.error.message).toContain("503");
    // One try and one retry (MODEL_MAX_RETRIES=1): bounded.
    expect(local.simulator!.requests.length).toBeLessThanOrEqual(2);
  });
});

describe("POST /run with bad input", () => {
  it("a malformed row is a 400 naming the field", async () => {
    const answer = await run({ responses_create_params: { input: [{ role: "user", content: 5 }] } }, "?environment=example_single_tool_call");
    expect(answer.status).toBe(400);
    expect(answer.body.error.issues[0].path).toEqual(["responses_create_params", "input", 0, "content"]);
  });

  it("a row with no way to tell its environment is a 400 listing the environments", async () => {
    const answer = await run(fixtureRows("example_single_tool_call")[0]);
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe("unknown_environment");
    expect(answer.body.error.message).toContain("example_multi_step");
  });

  it("a bad max_steps is a 400", async () => {
    const answer = await run(fixtureRows("example_single_tool_call")[0], "?environment=example_single_tool_call&max_steps=0");
    expect(answer.status).toBe(400);
  });
});

describe("the model endpoints through the gateway, with the official openai client", () => {
  it("responses.create and chat.completions.create", async () => {
    const client = new OpenAI({ baseURL: `${local.url}/v1`, apiKey: local.token! });
    const response = await client.responses.create({ model: "any", input: "Say hello." });
    expect(response.object).toBe("response");
    expect(response.output_text.length).toBeGreaterThan(0);

    local.simulator!.script({ tool_calls: [{ name: "get_weather", arguments: { city: "Paris" } }] });
    const withTools = await client.responses.create({
      model: "any",
      input: "weather in Paris?",
      tools: [{ type: "function", name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } }, strict: false }],
    });
    const call = withTools.output.find((item) => item.type === "function_call");
    expect(call && call.type === "function_call" && JSON.parse(call.arguments)).toEqual({ city: "Paris" });

    const completion = await client.chat.completions.create({ model: "any", messages: [{ role: "user", content: "hi" }] });
    expect(completion.choices[0]!.message.role).toBe("assistant");
  });
});

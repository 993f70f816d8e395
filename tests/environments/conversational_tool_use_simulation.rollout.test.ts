// conversational_tool_use_simulation end to end in workerd: POST /run → the agent's conversation loop (user-turns.ts) →
// the simulator as policy, simulated user, tool simulator and judge (scripted in turn) → the verified record.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import { gatewayFetch, postJson, startTestLocal } from "../helpers/local.js";

let local: Local;
beforeAll(async () => {
  local = await startTestLocal({
    environments: ["conversational_tool_use_simulation"],
    vars: { agent: { RETRY_BASE_SECONDS: "0", MAX_ATTEMPTS: "1" }, modelProxy: { MODEL_MAX_RETRIES: "0" }, judgeProxy: { MODEL_MAX_RETRIES: "0" } },
  });
});
afterAll(async () => {
  await local?.stop();
});
beforeEach(() => local.simulator!.reset());

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
const lookup = {
  name: "lookup_order",
  description: "Look up an order.",
  parameters: { type: "object", properties: { order_id: { type: "string" } }, required: ["order_id"] },
  returns: { type: "object", properties: { status: { type: "string" } }, required: ["status"] },
};
const row = {
  policy: "Help customers with their orders.",
  domain_name: "orders",
  agent_ref: { type: "responses_api_agents", name: "conversational_tool_use_agent" },
  profile: "general",
  tools: [lookup],
  customer_scenario: {
    customer_persona: "A shopper",
    reason_for_contact: "Order status",
    customer_details: "Order 42",
    task_instructions: "Ask for the status",
    outside_policy_scope: false,
  },
  responses_create_params: {
    input: [{ role: "system", content: "You are a customer service agent." }],
    tools: [{ type: "function", name: "lookup_order", description: "Look up an order.", parameters: lookup.parameters, strict: true }],
  },
};
const yes = { content: '{"success": true, "explanation": "fine"}' };

describe("a multi-turn rollout with a simulated user", () => {
  it("GET /v1/environments lists it with NeMo Gym's max_agent_steps", async () => {
    const list = (await (await gatewayFetch(`${local.url}/v1/environments`)).json()) as { data: Json[] };
    expect(list.data.find((e: Json) => e.name === "conversational_tool_use_simulation")).toMatchObject({ kind: "simple", max_steps: 50, stateful: true });
  });

  it("user → policy → simulated tool → policy → user stops: reward 1, user turns recorded in the trajectory", async () => {
    local.simulator!.script(
      { content: "Customer: Where is my order 42?" }, // the simulated user opens
      { tool_calls: [{ name: "lookup_order", arguments: { order_id: "42" } }] }, // the policy calls the tool
      { content: '{"status": "shipped"}' }, // the tool simulator answers
      { content: "Your order 42 has shipped." }, // the policy answers
      { content: "###STOP###" }, // the user ends it
      yes, // judge: user 0
      yes, // judge: tool result 2
      yes, // judge: user 4
      yes, // judge: agent 1
      yes, // judge: agent 3
      yes, // judge: the whole conversation
    );
    const answer = await postJson(`${local.url}/run`, row);
    expect(answer.status, JSON.stringify(answer.body).slice(0, 500)).toBe(200);
    const record = answer.body as Json;
    expect(record).toMatchObject({ reward: 1, terminal_state: "complete", num_user_messages: 2, num_agent_messages: 2, num_tool_calls: 1, failure_labels: [] });
    // The generated first user turn moved into the input; the output is the policy's continuation.
    expect(record.responses_create_params.input.at(-1)).toMatchObject({ role: "user", content: "Where is my order 42?" });
    expect(record.response.output.map((i: Json) => i.type)).toEqual(["function_call", "function_call_output", "message"]);
    expect(record.response.output[1]).toMatchObject({ output: '{"status": "shipped"}' });
    const messages = record.result.trajectory.messages as Json[];
    expect(messages.map((m) => [m.source, m.type, m.text ?? m.execution_result ?? m.arguments])).toEqual([
      ["user", "text", "Where is my order 42?"],
      ["agent", "tool_call", '{"order_id": "42"}'],
      ["environment", "tool_execution", '{"status": "shipped"}'],
      ["agent", "text", "Your order 42 has shipped."],
      ["user", "text", "###STOP###"],
    ]);
    expect(messages[2]).toMatchObject({ schema_valid: true, deserialized_execution_result: { status: "shipped" } });
    // Who was asked what: the user simulator's system prompt, the policy with the row's tools, the tool simulator's prompt.
    const requests = local.simulator!.requests as Json[];
    expect(requests).toHaveLength(11);
    expect(requests[0].messages[0].content).toMatch(/^# Instructions\n- You are playing the role of a customer contacting a customer service representative\./);
    expect(requests[1].tools.map((t: Json) => t.function.name)).toEqual(["lookup_order"]);
    expect(requests[2].messages.at(-1).content).toBe(
      '<conversation>\n<customer>\nWhere is my order 42?\n</customer>\n</conversation>\n\nTool to execute: lookup_order\nArguments for tool execution: {"order_id": "42"}',
    );
    expect(requests[4].messages.map((m: Json) => [m.role, m.content])).toEqual([
      ["system", requests[0].messages[0].content],
      ["assistant", "Customer: Where is my order 42?"],
      ["user", "Representative: Your order 42 has shipped."],
    ]);
    expect(requests[10].messages[1].content).toMatch(/^<steps>\n<message>\nSender: Customer\nContent: Where is my order 42\?\n<\/message>/);
  });

  it("a tool result that breaks the return schema three times ends the trajectory: reward 0, tool_failure, masked", async () => {
    local.simulator!.script(
      { content: "I want the status of order 42." },
      { tool_calls: [{ name: "lookup_order", arguments: { order_id: "42" } }] },
      { content: "not json" },
      { content: '{"state": "x"}' },
      { content: "[]" },
    );
    const answer = await postJson(`${local.url}/run`, row);
    expect(answer.status, JSON.stringify(answer.body).slice(0, 500)).toBe(200);
    expect(answer.body).toMatchObject({
      reward: 0,
      terminal_state: "incomplete",
      trajectory_invalid_reasons: ["invalid_environment_tool_execution"],
      failure_labels: ["tool_failure"],
      instance_config: { mask_sample: true },
      num_tool_schema_failures: 1,
    });
    expect((answer.body as Json).result.trajectory.terminal_error).toBe(
      "The execution result for the tool call with the ID " +
        (answer.body as Json).result.trajectory.messages[1].tool_call_id +
        " is not valid under the lookup_order tool return type JSON Schema: [] is not of type 'object'",
    );
    expect(local.simulator!.requests).toHaveLength(5);
  });

  it("max_steps: a call at the step cap is recorded, not executed; the trajectory ends excessive_length", async () => {
    local.simulator!.script({ content: "Status of order 42, please." }, { tool_calls: [{ name: "lookup_order", arguments: { order_id: "42" } }] });
    const answer = await postJson(`${local.url}/run?max_steps=1`, row);
    expect(answer.status, JSON.stringify(answer.body).slice(0, 500)).toBe(200);
    const record = answer.body as Json;
    expect(record).toMatchObject({
      reward: 0,
      terminal_state: "incomplete",
      trajectory_invalid_reasons: ["excessive_length"],
      failure_labels: ["trajectory_failure"],
    });
    expect(record.result.trajectory.terminal_error).toBe("The maximum number of agent steps of 1 has been reached");
    expect(record.result.trajectory.messages.map((m: Json) => m.type)).toEqual(["text", "tool_call"]);
    expect(record.response.output.map((i: Json) => i.type)).toEqual(["function_call"]);
    // The user and the policy only: no tool simulator, no judge.
    expect(local.simulator!.requests).toHaveLength(2);
  });

  it("a user model that fails is infrastructure: the rollout fails (environment_error), it is not scored", async () => {
    local.simulator!.script({ status: 500, error: "user model down" });
    const answer = await postJson(`${local.url}/run`, row);
    expect(answer.status).toBe(502);
    expect(answer.body.error.code).toBe("environment_error");
    expect(answer.body.error.message).toContain("/next_user_message answered 500");
    expect(answer.body.error.message).toContain("the user model: answered 502 upstream_failed");
  });

  it("a prefilled history ending in a pending call resumes with the tool simulator, then the policy", async () => {
    local.simulator!.script(
      { content: '{"status": "shipped"}' }, // the tool simulator answers the prefilled call
      { content: "Order 42 has shipped." }, // the policy
      { content: "###STOP###" }, // the user
      yes,
      yes,
      yes,
      yes,
      yes,
      yes,
    );
    const input = [
      { role: "system", content: "You are a customer service agent." },
      { role: "user", content: "Check order 42." },
      { type: "function_call", call_id: "c1", name: "lookup_order", arguments: '{"order_id": "42"}' },
    ];
    const answer = await postJson(`${local.url}/run`, { ...row, responses_create_params: { ...row.responses_create_params, input } });
    expect(answer.status, JSON.stringify(answer.body).slice(0, 500)).toBe(200);
    const record = answer.body as Json;
    expect(record).toMatchObject({ reward: 1, terminal_state: "complete", num_tool_calls: 1, num_tool_results: 1 });
    expect(record.result.trajectory.prefill_message_count).toBe(2);
    expect(record.result.trajectory.messages.map((m: Json) => [m.source, m.type])).toEqual([
      ["user", "text"],
      ["agent", "tool_call"],
      ["environment", "tool_execution"],
      ["agent", "text"],
      ["user", "text"],
    ]);
    // The tool simulator was asked about the pending call (the prefilled-call prompt), before any policy turn.
    const requests = local.simulator!.requests as Json[];
    expect(requests[0].messages.at(-1).content).toBe(
      '<conversation>\n<customer>\nCheck order 42.\n</customer>\n</conversation>\n\nTool to execute: lookup_order\nArguments for tool execution: {"order_id": "42"}',
    );
    expect(record.response.output.map((i: Json) => i.type)).toEqual(["function_call_output", "message"]);
  });
});

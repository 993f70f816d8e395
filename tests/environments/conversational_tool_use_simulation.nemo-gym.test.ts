// NeMo Gym's tests/test_app.py for conversational_tool_use_simulation, ported case by case: the session routes.
import { describe, expect, it } from "vitest";
import { conversationalToolUse } from "../../environments/conversational_tool_use_simulation/index.js";
import { setup, text } from "./conversational_tool_use_simulation.helpers.js";

describe("NeMo Gym's test_app.py", () => {
  it("test_seed_session_starts_from_prefilled_policy_user_message", async () => {
    const s = setup();
    await s.seed({
      responses_create_params: {
        input: [
          { role: "system", content: "Follow policy." },
          { role: "user", content: "Use this exact initial request." },
        ],
      },
    });
    expect(s.conversation().messages.map((m) => [m.source, m.content])).toEqual([["user", "Use this exact initial request."]]);
  });

  it("test_seed_session_rejects_conflicting_initial_user_messages (400)", async () => {
    const s = setup();
    const answer = await s.seed({
      initial_user_message: "First request.",
      responses_create_params: { input: [{ role: "user", content: "Different request." }] },
    });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain("initial_user_message must match the first user message");
  });

  it("test_seed_session_hydrates_full_prefilled_history", async () => {
    const s = setup();
    await s.seed({
      tools: [
        {
          name: "lookup_subscription",
          params: { type: "object", properties: {} },
          returns: { type: "object", properties: { status: { type: "string" } }, required: ["status"] },
        },
      ],
      responses_create_params: {
        input: [
          { role: "system", content: "Follow policy." },
          { role: "user", content: "Check my subscription." },
          { role: "assistant", content: "I will look it up." },
          { type: "function_call", call_id: "call_1", name: "lookup_subscription", arguments: "{}" },
          { type: "function_call_output", call_id: "call_1", output: '{"status":"active"}' },
          { role: "assistant", content: "Your subscription is active." },
          { role: "user", content: "Can you cancel it?" },
        ],
      },
    });
    const state = s.conversation();
    expect(state.messages.map((m) => [m.type, m.source])).toEqual([
      ["text", "user"],
      ["text", "agent"],
      ["tool_call", "agent"],
      ["tool_execution", "environment"],
      ["text", "agent"],
      ["text", "user"],
    ]);
    expect(state.messages[3]!.schema_valid).toBe(true);
    expect(state.prefill_message_count).toBe(6);
    expect(await s.body("session_resume")).toMatchObject({ next_actor: "agent", pending_tool_calls: [] });
  });

  it("test_agent_outputs_reject_duplicate_tool_call_ids", async () => {
    const s = setup();
    await s.seed({ tools: [{ name: "lookup_subscription", params: { type: "object" } }] });
    const call = { type: "function_call", tool_name: "lookup_subscription", tool_call_id: "call_1", arguments: "{}" };
    expect(await s.body("record_agent_outputs", { outputs: [call, call] })).toEqual({ should_continue: false, terminal_state: "incomplete" });
    const state = s.conversation();
    expect(state.invalid_reasons).toEqual(["invalid_agent_tool_call"]);
    expect(state.failure_labels).toEqual(["agent_failure"]);
    expect(state.terminal_error).toContain("not unique");
  });

  it("test_discard_session_is_idempotent", async () => {
    const s = setup();
    await s.seed({});
    expect(await s.body("discard_session")).toEqual({ discarded: true });
    expect(await s.body("discard_session")).toEqual({ discarded: false });
    expect(s.state.value).toBeUndefined();
  });

  it("test_user_stop_completes_and_agent_stop_does_not", async () => {
    const users = ["Customer: I need help canceling my subscription.", "###STOP###"];
    const s = setup({ answers: { user: () => text(users.shift()!) } });
    await s.seed({ customer_scenario: { reason_for_contact: "I need help canceling my subscription.", outside_policy_scope: false } });
    const first = await s.body("next_user_message");
    // The "Customer:" prefix the simulator may write is removed (USER_RESPONSE_PREFIX_PATTERN).
    expect(first).toEqual({ message: "I need help canceling my subscription.", should_continue: true, terminal_state: null });
    expect(await s.body("record_agent_message", { content: "Done. ###STOP###" })).toEqual({ should_continue: true, terminal_state: null });
    expect(await s.body("next_user_message")).toEqual({ message: "###STOP###", should_continue: false, terminal_state: "complete" });
    const verified = await s.verify();
    expect(verified).toMatchObject({ reward: 1, terminal_state: "complete", num_user_messages: 2, num_agent_messages: 1, failure_labels: [] });
    expect(verified.result.trajectory).toMatchObject({ prefill_message_count: 0, continuation_start_index: 0 });
    expect(verified.result.trajectory.messages.map((m) => m.source)).toEqual(["user", "agent", "user"]);
    expect(verified.result.trajectory.messages[0]!.text).toBe(first.message);
    expect(s.state.value).toBeUndefined();
  });

  it("test_first_user_stop_is_invalid", async () => {
    const s = setup({ answers: { user: () => text("###STOP###") } });
    await s.seed({ customer_scenario: { reason_for_contact: "I need help." } });
    expect(await s.body("next_user_message")).toMatchObject({ should_continue: false, terminal_state: "incomplete" });
    expect(await s.verify()).toMatchObject({ reward: 0, trajectory_invalid_reasons: ["invalid_user_message"], failure_labels: ["user_failure"] });
  });

  it("test_tool_schema_failure_is_recorded (three attempts, then tool_failure)", async () => {
    const s = setup({ answers: { tool_simulator: () => text('{"output": "Simulated result for lookup_subscription."}') } });
    await s.seed({
      tools: [
        {
          name: "lookup_subscription",
          description: "Look up a subscription.",
          parameters: { type: "object", properties: { email: { type: "string" } } },
          returns: { type: "object", required: ["status"] },
        },
      ],
    });
    const result = await s.body("execute_agent_tool_call", {
      tool_name: "lookup_subscription",
      tool_call_id: "call_1",
      arguments: '{"email": "alex@example.com"}',
    });
    expect(result).toMatchObject({
      schema_valid: false,
      error:
        "The execution result for the tool call with the ID call_1 is not valid under the lookup_subscription tool return type JSON Schema: 'status' is a required property",
    });
    expect(s.asked.filter((a) => a.role === "tool_simulator")).toHaveLength(3);
    const verified = await s.verify();
    expect(verified).toMatchObject({ reward: 0, num_tool_schema_failures: 1, failure_labels: ["tool_failure"] });
    expect(verified.result.trajectory.messages.at(-1)).toMatchObject({ source: "environment", schema_valid: false });
  });

  it("test_agent_step_limit_records_tool_calls_without_tool_simulation", async () => {
    const s = setup();
    await s.seed({
      tools: [
        {
          name: "lookup_subscription",
          doc: "Look up.",
          params: { type: "object", properties: { email: { type: "string" } }, required: ["email"] },
          returns: { type: "object" },
        },
      ],
    });
    const call = { tool_name: "lookup_subscription", arguments: '{"email":"alex@example.com"}' };
    const result = await s.body("record_agent_step_limit", {
      max_agent_steps: 50,
      tool_calls: [
        { ...call, tool_call_id: "call_1", response_output_index: 0 },
        { ...call, tool_call_id: "call_2", response_output_index: 1 },
      ],
      response: { id: "resp_limit" },
    });
    expect(result).toEqual({ should_continue: false, terminal_state: "incomplete" });
    const state = s.conversation();
    expect(state.messages.map((m) => [m.type, m.deserialized_arguments, m.response_id, m.response_output_index])).toEqual([
      ["tool_call", { email: "alex@example.com" }, "resp_limit", 0],
      ["tool_call", { email: "alex@example.com" }, "resp_limit", 1],
    ]);
    expect(state.messages[0]!.responses).toEqual([{ id: "resp_limit" }]);
    expect(state.messages[1]!.responses).toBeNull();
    expect(state).toMatchObject({
      generation_invalid_reason: "excessive_length",
      failure_labels: ["trajectory_failure"],
      terminal_error: "The maximum number of agent steps of 50 has been reached",
    });
    expect(s.asked).toHaveLength(0);
    expect((await s.verify()).instance_config).toEqual({ mask_sample: false });
  });

  it("test_tool_argument_enum_is_validated_by_jsonschema", async () => {
    const s = setup();
    await s.seed({
      tools: [
        {
          name: "update_subscription",
          description: "Update.",
          parameters: { type: "object", properties: { action: { type: "string", enum: ["cancel"] } }, required: ["action"] },
          returns: { type: "object" },
        },
      ],
    });
    const result = await s.body("execute_agent_tool_call", {
      tool_name: "update_subscription",
      tool_call_id: "tool_call_1",
      arguments: '{"action": "refund"}',
    });
    expect(result).toMatchObject({
      should_continue: false,
      terminal_state: "incomplete",
      error:
        "The arguments object in the tool call with the ID tool_call_1 is not valid under the update_subscription tool parameters JSON Schema: 'refund' is not one of ['cancel']",
    });
    const verified = await s.verify();
    expect(verified).toMatchObject({
      reward: 0,
      trajectory_invalid_reasons: ["invalid_agent_tool_call"],
      failure_labels: ["agent_failure"],
      instance_config: { mask_sample: false },
    });
    expect(verified.result.trajectory.messages.at(-1)!.tool_name).toBe("update_subscription");
  });

  it("test_valid_tool_result_returns_exact_raw_simulator_content (a json fence kept raw, parsed for validation)", async () => {
    const raw = '```json\n{"status": "active"}\n```';
    const s = setup({ answers: { tool_simulator: () => text(raw) } });
    await s.seed({ tools: [{ name: "lookup", parameters: { type: "object" }, returns: { type: "object", required: ["status"] } }] });
    expect(await s.body("execute_agent_tool_call", { tool_name: "lookup", tool_call_id: "c1", arguments: "{}" })).toMatchObject({
      output: raw,
      schema_valid: true,
      error: null,
      should_continue: true,
    });
    expect(s.conversation().messages.at(-1)).toMatchObject({ content: raw, deserialized_execution_result: { status: "active" } });
  });
});

describe("NeMo Gym's metrics tests", () => {
  it("test_compute_metrics_reports_transfer_enforcement_rates", () => {
    const environment = conversationalToolUse();
    const metrics = environment.computeMetrics!([
      [
        { transferred: true, transfer_ground_truth_mismatch: true, judge_skipped_for_transfer_mismatch: true, reward: 0 },
        { transferred: false, transfer_ground_truth_mismatch: false, judge_skipped_for_transfer_mismatch: false, reward: 1 },
      ],
    ] as never);
    expect(metrics).toMatchObject({
      "conversational_tool_use/transfer_rate": 0.5,
      "conversational_tool_use/transfer_ground_truth_mismatch_rate": 0.5,
      "conversational_tool_use/transfer_mismatch_judge_skip_rate": 0.5,
      "conversational_tool_use/agent_failure_rate": 0,
    });
    expect(environment.computeMetrics!([])).toEqual({});
  });

  it("test_get_key_metrics_returns_headline_metric_dict", () => {
    const rates = {
      "conversational_tool_use/transfer_rate": 0.1,
      "conversational_tool_use/transfer_ground_truth_mismatch_rate": 0.05,
      "conversational_tool_use/transfer_mismatch_judge_skip_rate": 0.05,
      "conversational_tool_use/tool_schema_failure_rate": 0.2,
      "conversational_tool_use/user_failure_rate": 0.3,
      "conversational_tool_use/agent_failure_rate": 0.35,
      "conversational_tool_use/tool_failure_rate": 0.4,
    };
    const metrics = { "mean/reward": 0.75, "reward/std": 0.25, ...rates, "conversational_tool_use/other_metric": 99 };
    expect(conversationalToolUse().keyMetrics!(metrics)).toEqual({ "mean/reward": 0.75, ...rates });
  });
});

describe("edge cases of the port", () => {
  it("a route before /seed_session is NeMo Gym's 400", async () => {
    const s = setup();
    const answer = await s.call("session_resume");
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain("Session not initialized. Call /seed_session first.");
  });

  it("a bad route body is a 422 naming the zod path; a bad row the SDK's 400 invalid_request with its path", async () => {
    const s = setup();
    await s.seed({});
    const answer = await s.call("record_agent_outputs", { outputs: [{ type: "function_call", tool_name: 3 }] });
    expect(answer.status).toBe(422);
    expect(JSON.stringify(answer.body)).toContain('"path":["outputs",0,"tool_name"]');
    const seed = await s.seed({ policy: 7 });
    expect(seed.status).toBe(400);
    expect(JSON.stringify(seed.body)).toContain('"path":["policy"]');
  });

  it("a failed user-model call is the tool's 500 (tool_error, retried whole), not a scored failure", async () => {
    const s = setup();
    await s.seed({});
    const answer = await s.call("next_user_message");
    expect(answer.status).toBe(500);
    expect(s.conversation().terminal_state).toBeNull();
  });

  it("a simulator answer without text is NeMo Gym's message_generation_error at once (the try wraps the attempts)", async () => {
    const s = setup({ answers: { user: () => ({ ...text(""), output: [] }) } });
    await s.seed({});
    expect(await s.body("next_user_message")).toEqual({ message: "", should_continue: false, terminal_state: "incomplete" });
    expect(s.conversation()).toMatchObject({ invalid_reasons: ["message_generation_error"], failure_labels: ["user_failure"] });
  });
});

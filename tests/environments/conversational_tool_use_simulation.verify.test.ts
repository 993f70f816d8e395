// NeMo Gym's tests/test_app.py for conversational_tool_use_simulation, ported case by case: verification and its judge.
import { describe, expect, it } from "vitest";
import { setup, text } from "./conversational_tool_use_simulation.helpers.js";

type Json = Record<string, unknown>;

describe("NeMo Gym's test_app.py: verify", () => {
  it("test_llm_judge_uses_termination_order, then the conversation judgment", async () => {
    const judged: string[] = [];
    const s = setup({
      judge: true,
      answers: {
        judge: (params) => {
          const system = String((params.input as { content: string }[])[0]!.content);
          const user = String((params.input as { content: string }[])[1]!.content);
          judged.push(
            !user.includes("<current_step>")
              ? "agent_conversation"
              : system.includes("is a message from the customer")
                ? "user"
                : system.includes("is the result of executing a tool")
                  ? "environment"
                  : "agent",
          );
          return text('```json\n{"success": true, "explanation": "ok"}\n```');
        },
      },
    });
    await s.seed({ tools: [{ name: "lookup_subscription", parameters: { type: "object" } }] });
    s.setMessages(
      [
        { type: "text", source: "user", content: "I need help." },
        { type: "text", source: "agent", content: "I can help." },
        { type: "tool_call", source: "agent", tool_call_id: "call_1", tool_name: "lookup_subscription", arguments: '{"email":"alex@example.com"}' },
        {
          type: "tool_execution",
          source: "environment",
          tool_call_id: "call_1",
          tool_name: "lookup_subscription",
          arguments: "{}",
          content: '{"status":"active"}',
        },
        { type: "text", source: "agent", content: "You are active." },
      ],
      "complete",
    );
    const verified = await s.verify();
    expect(verified.reward).toBe(1);
    expect(judged).toEqual(["user", "environment", "agent", "agent", "agent", "agent_conversation"]);
    expect(verified.failure_labels).toEqual([]);
    expect((verified.judge_diagnostics as Json).verification_type).toBe("message");
    expect(verified.result.trajectory.agent_verification_result).toMatchObject({
      overall_reward: 1,
      conversation_verification_result: { reward: 1, explanation: "ok" },
    });
  });

  it("test_llm_judge_labels_tool_response_failure_and_short_circuits", async () => {
    let calls = 0;
    const s = setup({
      judge: true,
      answers: { judge: () => text(++calls === 2 ? '{"success": false, "explanation": "checked"}' : '{"success": true, "explanation": "checked"}') },
    });
    await s.seed({});
    s.setMessages(
      [
        { type: "text", source: "user", content: "I need help." },
        { type: "text", source: "agent", content: "I can help." },
        {
          type: "tool_execution",
          source: "environment",
          tool_call_id: "call_1",
          tool_name: "lookup_subscription",
          arguments: "{}",
          content: '{"status":"wrong"}',
        },
        { type: "text", source: "agent", content: "You are active." },
      ],
      "complete",
    );
    const verified = await s.verify();
    expect(calls).toBe(2);
    expect(verified).toMatchObject({
      reward: 0,
      trajectory_invalid_reasons: ["no_reward_environment_message"],
      failure_labels: ["tool_failure"],
      num_tool_failures: 1,
      instance_config: { mask_sample: true },
    });
    expect(verified.result.trajectory.agent_verification_result).toMatchObject({ trajectory_invalid_reasons: ["no_reward_environment_message"] });
  });

  it("test_malformed_judge_output_uses_only_semantic_attempts", async () => {
    const answers = ["not valid json", '{"success":true,"explanation":"ok"}'];
    const s = setup({ judge: true, answers: { judge: () => text(answers.shift()!) } });
    await s.seed({});
    s.setMessages([{ type: "text", source: "user", content: "###STOP### after help" }], "complete");
    const verified = await s.verify();
    const first = (verified.result.trajectory.messages[0] as { verification_result: Json }).verification_result;
    expect(first).toMatchObject({ reward: 1, explanation: "ok" });
    expect((first.responses as unknown[]).length).toBe(2);
  });

  it("test_combined_verification_type_uses_single_judge_shape", async () => {
    const s = setup({
      judge: true,
      combined: true,
      answers: {
        judge: () =>
          text(
            JSON.stringify({
              customer_success: true,
              customer_explanation: "customer ok",
              representative_success: false,
              representative_explanation: "agent bad",
              tool_results_success: true,
              tool_results_explanation: "tools ok",
            }),
          ),
      },
    });
    await s.seed({ customer_scenario: { reason_for_contact: "Look up my subscription." } });
    s.setMessages(
      [
        { type: "text", source: "user", content: "I need help." },
        { type: "text", source: "agent", content: "I cannot help." },
        { type: "text", source: "user", content: "###STOP###" },
      ],
      "complete",
    );
    const verified = await s.verify();
    expect(s.asked.filter((a) => a.role === "judge")).toHaveLength(1);
    expect(verified).toMatchObject({ reward: 0, trajectory_invalid_reasons: [], failure_labels: ["agent_failure"], instance_config: { mask_sample: false } });
    expect(verified.judge_diagnostics).toMatchObject({
      verification_type: "complete_trajectory_combined_evaluation",
      conversation_verification_result: { reward: 0 },
    });
    expect(verified.result.trajectory).toMatchObject({
      user_verification_result: { reward: 1, explanation: "customer ok" },
      environment_verification_result: { reward: 1, explanation: "tools ok" },
      agent_verification_result: { overall_reward: 0, conversation_verification_result: { reward: 0, explanation: "agent bad" } },
    });
  });

  for (const [outside, terminal] of [
    [false, "###TRANSFER###"],
    [true, "###STOP###"],
  ] as const) {
    it(`test_transfer_ground_truth_mismatch_zeroes_reward_and_skips_judge (outside_policy_scope=${outside})`, async () => {
      const s = setup({ judge: true, enforce: true, answers: {} });
      await s.seed({ customer_scenario: { reason_for_contact: "Help.", outside_policy_scope: outside } });
      s.setMessages(
        [
          { type: "text", source: "user", content: "I need help." },
          { type: "text", source: "agent", content: "Sure." },
          { type: "text", source: "user", content: terminal },
        ],
        "complete",
      );
      const verified = await s.verify();
      expect(s.asked).toHaveLength(0);
      expect(verified).toMatchObject({
        reward: 0,
        transfer_ground_truth_mismatch: true,
        judge_skipped_for_transfer_mismatch: true,
        failure_labels: ["agent_failure"],
      });
      expect((verified.judge_diagnostics as Json).transfer_ground_truth_enforcement).toEqual({
        expected_transfer: outside,
        observed_transfer: !outside,
        mismatch: true,
        judge_skipped: true,
      });
      expect(verified.result.trajectory.agent_verification_result).toMatchObject({
        overall_reward: 0,
        conversation_verification_result: {
          reward: 0,
          explanation: `Deterministic transfer-ground-truth mismatch: expected transferred=${outside ? "True" : "False"}, observed transferred=${outside ? "False" : "True"}.`,
        },
      });
    });
  }
});

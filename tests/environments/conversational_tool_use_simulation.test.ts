// conversational_tool_use_simulation: NeMo Gym's recorded rollouts re-verify to their rewards and fields (judge and user replayed).
import { describe, expect, it } from "vitest";
import type { ResponsesCreateParams, Response as ResponsesResponse } from "../../protocol/index.js";
import { conversationalToolUse, DEFAULT_CONFIG } from "../../environments/conversational_tool_use_simulation/index.js";
import { perform } from "../../environments/sdk/perform.js";
import { contextOf, scriptedModels } from "./conversational_tool_use_simulation.helpers.js";
import { fixtureRollouts } from "../helpers/fixtures.js";

type Json = Record<string, unknown>;
type Message = {
  type: string;
  source: string;
  text?: string;
  tool_call_id?: string;
  tool_name?: string;
  arguments?: string;
  execution_result?: string;
  responses?: Json[];
  verification_result?: Json & { responses?: Json[] };
};

const lastContent = (params: ResponsesCreateParams) => String((params.input as { content: string }[]).at(-1)!.content);

/** The trajectory before its last (user) message, as Responses history. */
function history(messages: Message[]): Json[] {
  return messages.map((m) => {
    if (m.type === "text") return { type: "message", role: m.source === "user" ? "user" : "assistant", content: m.text };
    if (m.type === "tool_call") return { type: "function_call", call_id: m.tool_call_id, name: m.tool_name, arguments: m.arguments };
    return { type: "function_call_output", call_id: m.tool_call_id, output: m.execution_result };
  });
}

const records = fixtureRollouts("conversational_tool_use_simulation");
// The recordings were made with enforce_transfer_ground_truth off (their transfer_ground_truth_enforced is false).
const recorded = conversationalToolUse({ ...DEFAULT_CONFIG, enforceTransferGroundTruth: false });

describe("NeMo Gym's recorded rollouts re-verify to their rewards", () => {
  it("has the five recordings", () => expect(records).toHaveLength(5));

  for (const [n, record] of records.entries()) {
    it(`rollout ${n} (${String(record.id)}): reward ${String(record.reward)}`, async () => {
      const trajectory = (record.result as { trajectory: { messages: Message[] } }).trajectory;
      const messages = trajectory.messages;
      const last = messages.at(-1)!;
      expect(last).toMatchObject({ type: "text", source: "user" });

      // The judge answers each step with the responses NeMo Gym's judge gave it, in order.
      const conversation = (record.judge_diagnostics as { conversation_verification_result?: { responses?: Json[] } }).conversation_verification_result;
      const { models, asked } = scriptedModels({
        user: () => last.responses![0] as unknown as ResponsesResponse,
        judge: (params) => {
          const prompt = lastContent(params);
          if (!prompt.includes("<current_step>")) return conversation!.responses!.shift() as unknown as ResponsesResponse;
          return messages[indexOfStep(prompt)]!.verification_result!.responses!.shift() as unknown as ResponsesResponse;
        },
      });
      const ctx = contextOf(models);
      const row = { ...record, responses_create_params: { input: history(messages.slice(0, -1)) } };
      expect(await perform(recorded, { kind: "seed_session" }, row, ctx)).toEqual({ status: 200, body: {} });
      const resumed = await perform(recorded, { kind: "tool", name: "session_resume" }, {}, ctx);
      expect(resumed.body).toMatchObject({ next_actor: "user" });
      const user = await perform(recorded, { kind: "tool", name: "next_user_message" }, {}, ctx);
      expect(user).toEqual({ status: 200, body: { message: last.text, should_continue: false, terminal_state: "complete" } });

      const verified = await perform(recorded, { kind: "verify" }, record, ctx);
      expect(verified.body).toMatchObject({});
      expect(verified.status, JSON.stringify(verified.body).slice(0, 400)).toBe(200);
      const body = verified.body as Json;
      for (const key of [
        "reward",
        "terminal_state",
        "trajectory_invalid_reasons",
        "failure_labels",
        "judge_generation_error",
        "instance_config",
        "num_user_messages",
        "num_agent_messages",
        "num_tool_calls",
        "num_tool_results",
        "num_tool_schema_failures",
        "num_user_failures",
        "num_agent_failures",
        "num_tool_failures",
        "outside_policy_scope",
        "transferred",
        "transfer_ground_truth_enforced",
        "transfer_ground_truth_mismatch",
        "judge_skipped_for_transfer_mismatch",
      ]) {
        expect(body[key], key).toEqual(record[key]);
      }
      const diagnostics = body.judge_diagnostics as Json;
      const expected = record.judge_diagnostics as Json;
      expect(diagnostics.message_verification_results).toEqual(expected.message_verification_results);
      const { responses: _r, ...conversationExpected } = (expected.conversation_verification_result ?? {}) as Json;
      const { responses: _s, ...conversationGot } = (diagnostics.conversation_verification_result ?? {}) as Json;
      expect(conversationGot).toEqual(conversationExpected);
      // The trajectory: every message's text, call, result and its judgment as NeMo Gym recorded them.
      const got = (body.result as { trajectory: { messages: Message[] } }).trajectory.messages;
      expect(got).toHaveLength(messages.length);
      got.forEach((m, i) => {
        const want = messages[i]!;
        for (const key of [
          "type",
          "source",
          "text",
          "tool_call_id",
          "tool_name",
          "arguments",
          "execution_result",
          "deserialized_arguments",
          "deserialized_execution_result",
          "schema_valid",
        ]) {
          expect((m as Json)[key], `message ${i} ${key}`).toEqual((want as Json)[key]);
        }
        const { responses: _a, ...judgedGot } = (m.verification_result ?? {}) as Json;
        const { responses: _b, ...judgedWant } = (want.verification_result ?? {}) as Json;
        expect(judgedGot, `message ${i} verification_result`).toEqual(judgedWant);
      });
      expect(asked.filter((a) => a.role === "judge").length).toBeGreaterThan(0);
    });
  }
});

/** Which step a message-level prompt judges: the number of steps before it. */
function indexOfStep(prompt: string): number {
  const previous = prompt.match(/<previous_steps>\n([\s\S]*?)\n<\/previous_steps>/)?.[1] ?? "";
  if (!previous) return 0;
  return (previous.match(/^<(message|execute_tool|tool_result)>$/gm) ?? []).length;
}

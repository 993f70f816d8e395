// NeMo Gym's /verify for conversational_tool_use_simulation, message-level mode: reward, labels, diagnostics, trajectory.
import type { Models } from "../../contracts/context.js";
import { formatMessage, formatMessageList } from "./format.js";
import { JudgeError } from "../sdk/judge.js";
import { verifyCombined } from "./combined.js";
import { judgeEvaluation } from "./judge.js";
import * as P from "./prompts.js";
import { pyFormat } from "../sdk/python/index.js";
import { type Conversation, type ConversationMessage, dedupe, FailureLabel, InvalidReason, recordFailure, TRANSFER, type VerificationResult } from "./state.js";

export interface VerifyConfig {
  generationAttempts: number;
  enableLlmJudge: boolean;
  enableTermination: boolean;
  enforceTransferGroundTruth: boolean;
  /** NeMo Gym's verification_type: per message (the default) or one combined judgment of the whole conversation. */
  verificationType?: "message" | "complete_trajectory_combined_evaluation";
}

function diagnosticsOf(state: Conversation, config: VerifyConfig): Record<string, number | boolean> {
  const transferred = state.messages.some((m) => m.source === "user" && typeof m.content === "string" && m.content.includes(TRANSFER));
  const outside = Boolean(state.customer_scenario.outside_policy_scope);
  const count = (test: (m: ConversationMessage) => boolean) => state.messages.filter(test).length;
  return {
    num_user_messages: count((m) => m.source === "user"),
    num_agent_messages: count((m) => m.source === "agent"),
    num_tool_calls: count((m) => m.type === "tool_call"),
    num_tool_results: count((m) => m.type === "tool_execution"),
    num_tool_schema_failures: count((m) => m.type === "tool_execution" && m.schema_valid === false),
    outside_policy_scope: outside,
    transferred,
    transfer_ground_truth_enforced: config.enforceTransferGroundTruth,
    transfer_ground_truth_mismatch: config.enforceTransferGroundTruth && transferred !== outside,
    judge_skipped_for_transfer_mismatch: false,
  };
}

async function verifyMessage(models: Models, state: Conversation, index: number, config: VerifyConfig): Promise<number | null | undefined> {
  const message = state.messages[index]!;
  const prompt = pyFormat(P.MESSAGE_CONVERSATION_TEMPLATE, {
    previous_steps: formatMessageList(state.messages.slice(0, index)),
    current_step: formatMessage(message),
  });
  message.verification_result = await judgeEvaluation(models, state, message.source, prompt, config.generationAttempts);
  return message.verification_result.reward;
}

type Verdict = [invalid: string[], agentReward: number, labels: string[]];

/** _verify_messages_with_termination: users and tool results first (the first failure ends it), then the agent's steps. */
async function withTermination(models: Models, state: Conversation, config: VerifyConfig): Promise<Verdict> {
  for (const agentPass of [false, true]) {
    for (let index = 0; index < state.messages.length; index++) {
      const source = state.messages[index]!.source;
      if ((source === "agent") !== agentPass) continue;
      const reward = await verifyMessage(models, state, index, config);
      if (reward === null || reward === undefined) return [[InvalidReason.verification], 1, [FailureLabel.verification]];
      if (reward < 1) {
        if (source === "user") return [[InvalidReason.noRewardUser], 1, [FailureLabel.user]];
        if (source === "environment") return [[InvalidReason.noRewardEnvironment], 1, [FailureLabel.tool]];
        return [[], 0, [FailureLabel.agent]];
      }
    }
  }
  return [[], 1, []];
}

/** _verify_all_messages (enable_termination false): every step judged. */
async function allMessages(models: Models, state: Conversation, config: VerifyConfig): Promise<Verdict> {
  const invalid: string[] = [];
  const labels: string[] = [];
  let agentReward = 1;
  for (let index = 0; index < state.messages.length; index++) {
    const source = state.messages[index]!.source;
    const reward = await verifyMessage(models, state, index, config);
    if (reward === null || reward === undefined) {
      invalid.push(InvalidReason.verification);
      labels.push(FailureLabel.verification);
    } else if (reward < 1) {
      if (source === "agent") agentReward = Math.min(agentReward, reward);
      else invalid.push(source === "user" ? InvalidReason.noRewardUser : InvalidReason.noRewardEnvironment);
      labels.push(source === "user" ? FailureLabel.user : source === "agent" ? FailureLabel.agent : FailureLabel.tool);
    }
  }
  return [invalid, agentReward, labels];
}

function withoutNulls(result: VerificationResult): Record<string, unknown> {
  return Object.fromEntries(Object.entries(result).filter(([, v]) => v !== null && v !== undefined));
}

/** _verify_messages (message mode). */
async function verifyMessages(models: Models, state: Conversation, config: VerifyConfig) {
  const [invalid, agentRewardBefore, labels] = config.enableTermination
    ? await withTermination(models, state, config)
    : await allMessages(models, state, config);
  let agentReward = agentRewardBefore;
  let conversation: VerificationResult | null = null;
  if (!config.enableTermination || (invalid.length < 1 && agentReward > 0)) {
    const prompt = pyFormat(P.COMPLETE_CONVERSATION_TEMPLATE, { steps: formatMessageList(state.messages) });
    conversation = await judgeEvaluation(models, state, "agent_conversation", prompt, config.generationAttempts);
    const reward = conversation.reward;
    if (reward === null || reward === undefined) {
      invalid.push(InvalidReason.verification);
      labels.push(FailureLabel.verification);
    } else {
      agentReward = Math.min(agentReward, reward);
      if (reward < 1) labels.push(FailureLabel.agent);
    }
  }
  const reward = invalid.length ? 0 : agentReward;
  const normalized = dedupe(invalid);
  state.agent_verification_result = normalized.length
    ? { conversation_verification_result: conversation, trajectory_invalid_reasons: normalized }
    : { conversation_verification_result: conversation, overall_reward: Math.trunc(agentReward) };
  const diagnostics = {
    verification_type: "message",
    enable_termination: config.enableTermination,
    message_verification_results: state.messages.map((message, index) => ({
      index,
      type: message.type,
      source: message.source,
      tool_name: message.tool_name ?? null,
      reward: message.verification_result?.reward ?? null,
      explanation: message.verification_result?.explanation ?? null,
      generation_error: message.verification_result?.generation_error ?? null,
    })),
    conversation_verification_result: conversation === null ? null : withoutNulls(conversation),
  };
  return { reward, invalid: normalized, labels: dedupe(labels), diagnostics };
}

/** The verify fields NeMo Gym adds to the request (ConversationalToolUseVerifyResponse); the session is then finished. */
export async function verifyConversation(models: Models, state: Conversation, config: VerifyConfig): Promise<Record<string, unknown>> {
  let diagnostics = diagnosticsOf(state, config);
  let judgeError: string | null = null;
  let judgeDiagnostics: Record<string, unknown> = {};
  let invalid = dedupe(state.invalid_reasons);
  let labels = dedupe(state.failure_labels);
  const mismatch = diagnostics.transfer_ground_truth_mismatch === true;
  let skipped = false;
  let reward: number;
  if (state.terminal_state !== "complete") {
    if (!invalid.length) {
      recordFailure(state, InvalidReason.generation, FailureLabel.trajectory, "Trajectory reached verification without a complete terminal state.");
      invalid = dedupe(state.invalid_reasons);
      labels = dedupe(state.failure_labels);
      diagnostics = diagnosticsOf(state, config);
    }
    reward = 0;
  } else if (invalid.length) {
    reward = 0;
  } else if (mismatch) {
    reward = 0;
    labels = dedupe([...labels, FailureLabel.agent]);
    skipped = true;
    const explanation = `Deterministic transfer-ground-truth mismatch: expected transferred=${diagnostics.outside_policy_scope ? "True" : "False"}, observed transferred=${diagnostics.transferred ? "True" : "False"}.`;
    state.agent_verification_result = { conversation_verification_result: { reward: 0, explanation }, overall_reward: 0 };
  } else if (config.enableLlmJudge) {
    try {
      const verdict =
        config.verificationType === "complete_trajectory_combined_evaluation"
          ? await verifyCombined(models, state, config.generationAttempts, config.enableTermination)
          : await verifyMessages(models, state, config);
      reward = verdict.reward;
      invalid = verdict.invalid;
      labels = verdict.labels;
      judgeDiagnostics = verdict.diagnostics;
    } catch (error) {
      // A failed judge call is the rollout's judge_failed (the SDK's JudgeError); any other error is NeMo Gym's
      // verification_generation_error, reward 0, the error kept as `Type: message`.
      if (error instanceof JudgeError || !(error instanceof Error)) throw error;
      judgeError = `${error.name}: ${error.message}`;
      invalid = [InvalidReason.verification];
      labels = [FailureLabel.verification];
      reward = 0;
    }
  } else {
    reward = 1;
  }
  diagnostics.judge_skipped_for_transfer_mismatch = skipped;
  if (config.enforceTransferGroundTruth) {
    judgeDiagnostics = {
      ...judgeDiagnostics,
      transfer_ground_truth_enforcement: {
        expected_transfer: diagnostics.outside_policy_scope,
        observed_transfer: diagnostics.transferred,
        mismatch,
        judge_skipped: skipped,
      },
    };
  }
  state.invalid_reasons = dedupe(invalid);
  state.failure_labels = dedupe(labels);
  state.verification_reward = reward;
  state.judge_generation_error = judgeError;
  state.judge_diagnostics = judgeDiagnostics;
  if (judgeError !== null && state.agent_verification_result === null) {
    state.agent_verification_result = {
      conversation_verification_result: { generation_error: judgeError },
      trajectory_invalid_reasons: [...state.invalid_reasons],
    };
  }
  const count = (label: string) => state.failure_labels.filter((l) => l === label).length;
  return {
    ...diagnostics,
    num_user_failures: count(FailureLabel.user),
    num_agent_failures: count(FailureLabel.agent),
    num_tool_failures: count(FailureLabel.tool),
    reward: state.verification_reward,
    terminal_state: state.terminal_state,
    trajectory_invalid_reasons: state.invalid_reasons,
    failure_labels: state.failure_labels,
    judge_generation_error: state.judge_generation_error,
    judge_diagnostics: state.judge_diagnostics,
    instance_config: { mask_sample: shouldMask(state) },
    result: trajectoryResult(state),
  };
}

function shouldMask(state: Conversation): boolean {
  const labels = new Set(state.failure_labels);
  if (labels.has(FailureLabel.user) || labels.has(FailureLabel.tool) || labels.has(FailureLabel.verification)) return true;
  return labels.has(FailureLabel.trajectory) && state.generation_invalid_reason === InvalidReason.generation;
}

function messageDict(message: ConversationMessage): Record<string, unknown> {
  const out: Record<string, unknown> = { type: message.type, source: message.source };
  if (message.responses) out.responses = message.responses;
  if (message.response_id != null) out.response_id = message.response_id;
  if (message.response_output_index != null) out.response_output_index = message.response_output_index;
  const call = { tool_call_id: message.tool_call_id ?? null, tool_name: message.tool_name ?? null, arguments: message.arguments ?? null };
  if (message.type === "text") out.text = message.content ?? null;
  else if (message.type === "tool_call") Object.assign(out, call, { deserialized_arguments: message.deserialized_arguments ?? null });
  else {
    Object.assign(out, call, {
      execution_result: message.content ?? null,
      deserialized_execution_result: message.deserialized_execution_result ?? null,
      schema_valid: message.schema_valid ?? null,
    });
  }
  if (message.verification_result) out.verification_result = withoutNulls(message.verification_result);
  return out;
}

/** _trajectory_result: the simulator-native record of the conversation. */
export function trajectoryResult(state: Conversation): Record<string, unknown> {
  return {
    profile: state.profile,
    source_artifacts: state.source_artifacts,
    trajectory: {
      messages: state.messages.map(messageDict),
      prefill_message_count: state.prefill_message_count,
      continuation_start_index: state.prefill_message_count,
      terminal_state: state.terminal_state,
      generation_invalid_reason: state.generation_invalid_reason,
      terminal_error: state.terminal_error,
      agent_verification_result: state.agent_verification_result,
      user_verification_result: state.user_verification_result,
      environment_verification_result: state.environment_verification_result,
    },
  };
}

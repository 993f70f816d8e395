// NeMo Gym's complete_trajectory_combined_evaluation: one judge request scores the customer, the representative and the tools.
import type { Models } from "../../contracts/context.js";
import { pyFormat } from "../sdk/python/index.js";
import { formatMessageList, formatToolDefinitions, scenarioString } from "./format.js";
import { askJudge } from "./judge.js";
import * as P from "./prompts.js";
import { COMPLETE, type Conversation, dedupe, FailureLabel, InvalidReason, TRANSFER, type VerificationResult } from "./state.js";

const FIELDS = {
  customer_success: "bool",
  customer_explanation: "str",
  representative_success: "bool",
  representative_explanation: "str",
  tool_results_success: "bool",
  tool_results_explanation: "str",
} as const;

/** _combined_evaluation_system_message. */
export function combinedSystemMessage(state: Conversation): string {
  return pyFormat(P.USER_AGENT_ENVIRONMENT_CONVERSATION_EVALUATION_SYSTEM_MESSAGE_TEMPLATE, {
    policy: state.policy,
    tool_definitions: formatToolDefinitions(state.tool_signatures),
    customer_scenario: scenarioString(state.customer_scenario),
    complete_indicator: COMPLETE,
    transfer_indicator: TRANSFER,
    transfer_instruction: state.customer_scenario.outside_policy_scope ? "" : "not ",
    evaluation_schema: P.COMBINED_EVALUATION_SCHEMA,
  });
}

type Triple = [user: VerificationResult | null, agent: VerificationResult, environment: VerificationResult | null];

/** _generate_user_agent_environment_evaluation: semantic retries; a failed call throws (judge_failed). */
async function evaluate(models: Models, state: Conversation, userMessage: string, attempts: number): Promise<Triple> {
  const messages = { system: combinedSystemMessage(state), user: userMessage };
  const answer = await askJudge(
    models,
    messages,
    attempts,
    FIELDS,
    (e, canonical, responses): Triple => [
      { reward: e.customer_success ? 1 : 0, explanation: String(e.customer_explanation) },
      { reward: e.representative_success ? 1 : 0, explanation: String(e.representative_explanation), judge_response: canonical, responses },
      { reward: e.tool_results_success ? 1 : 0, explanation: String(e.tool_results_explanation) },
    ],
  );
  return Array.isArray(answer) ? answer : [null, answer, null];
}

const withoutNulls = (result: VerificationResult | null) =>
  result === null ? null : Object.fromEntries(Object.entries(result).filter(([, v]) => v !== null && v !== undefined));

/** _verify_complete_trajectory_with_combined_evaluation. */
export async function verifyCombined(models: Models, state: Conversation, attempts: number, enableTermination: boolean) {
  const prompt = pyFormat(P.COMPLETE_CONVERSATION_TEMPLATE, { steps: formatMessageList(state.messages) });
  const [user, agent, environment] = await evaluate(models, state, prompt, attempts);
  const invalid: string[] = [];
  const labels: string[] = [];
  let reward = 0;
  if (user === null || environment === null) {
    invalid.push(InvalidReason.verification);
    labels.push(FailureLabel.verification);
  } else {
    if (user.reward != null && user.reward < 1) {
      invalid.push(InvalidReason.noRewardUser);
      labels.push(FailureLabel.user);
    }
    if (environment.reward != null && environment.reward < 1) {
      invalid.push(InvalidReason.noRewardEnvironment);
      labels.push(FailureLabel.tool);
    }
    if (agent.reward == null) {
      invalid.push(InvalidReason.verification);
      labels.push(FailureLabel.verification);
    } else {
      if (agent.reward < 1) labels.push(FailureLabel.agent);
      reward = invalid.length ? 0 : agent.reward;
    }
  }
  const normalized = dedupe(invalid);
  state.user_verification_result = user;
  state.environment_verification_result = environment;
  state.agent_verification_result = normalized.length
    ? { conversation_verification_result: agent, trajectory_invalid_reasons: normalized }
    : { conversation_verification_result: agent, overall_reward: agent.reward ?? null };
  const diagnostics = {
    verification_type: "complete_trajectory_combined_evaluation",
    enable_termination: enableTermination,
    user_verification_result: withoutNulls(user),
    conversation_verification_result: withoutNulls(agent),
    environment_verification_result: withoutNulls(environment),
  };
  return { reward, invalid: normalized, labels: dedupe(labels), diagnostics };
}

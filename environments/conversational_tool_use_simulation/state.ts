// The session's conversation (NeMo Gym's ConversationSessionState) and the row fields it is seeded from.
import { z } from "zod";

export const COMPLETE = "###STOP###";
export const TRANSFER = "###TRANSFER###";

export type Source = "user" | "agent" | "environment";
export type MessageType = "text" | "tool_call" | "tool_execution";

export const InvalidReason = {
  generation: "message_generation_error",
  user: "invalid_user_message",
  agentToolCall: "invalid_agent_tool_call",
  toolExecution: "invalid_environment_tool_execution",
  length: "excessive_length",
  verification: "verification_generation_error",
  noRewardUser: "no_reward_user_message",
  noRewardEnvironment: "no_reward_environment_message",
} as const;

export const FailureLabel = {
  user: "user_failure",
  agent: "agent_failure",
  tool: "tool_failure",
  verification: "verification_generation_error",
  trajectory: "trajectory_failure",
} as const;

/** A tool as the row gives it: `doc`/`params` win over `description`/`parameters` (NeMo Gym's normalized_*). */
export const ToolSignature = z.looseObject({
  name: z.string(),
  description: z.string().nullish(),
  parameters: z.record(z.string(), z.unknown()).nullish(),
  returns: z.record(z.string(), z.unknown()).nullish(),
  strict: z.boolean().default(true),
  doc: z.string().nullish(),
  params: z.record(z.string(), z.unknown()).nullish(),
});
export type ToolSignature = z.infer<typeof ToolSignature>;

export const CustomerScenario = z.looseObject({
  customer_persona: z.string().default(""),
  reason_for_contact: z.string().default(""),
  customer_details: z.string().default(""),
  unknown_info: z.string().nullish(),
  task_instructions: z.string().default(""),
  representative_domain: z.string().nullish(),
  outside_policy_scope: z.boolean().nullish(),
});
export type CustomerScenario = z.infer<typeof CustomerScenario>;

/** NeMo Gym's ConversationalToolUseSeedSessionRequest: the task fields of a row. */
export const Task = z.object({
  domain_name: z.string().default(""),
  profile: z.enum(["general", "proactive"]).nullish(),
  policy: z.string(),
  tools: z.array(ToolSignature).default([]),
  customer_scenario: CustomerScenario.default(CustomerScenario.parse({})),
  initial_user_message: z.string().nullish(),
  source_artifacts: z.record(z.string(), z.unknown()).default({}),
  rollout_id: z.string().nullish(),
});

export interface VerificationResult {
  reward?: number | null;
  explanation?: string | null;
  judge_response?: string | null;
  generation_error?: string | null;
  responses?: unknown[] | null;
}

export interface ConversationMessage {
  type: MessageType;
  source: Source;
  responses?: unknown[] | null;
  response_id?: string | null;
  response_output_index?: number | null;
  content?: unknown;
  tool_call_id?: string | null;
  tool_name?: string | null;
  arguments?: string | null;
  deserialized_arguments?: unknown;
  deserialized_execution_result?: unknown;
  schema_valid?: boolean | null;
  verification_result?: VerificationResult | null;
}

export interface AgentVerificationResult {
  conversation_verification_result?: VerificationResult | null;
  overall_reward?: number | null;
  trajectory_invalid_reasons?: string[] | null;
}

export interface Conversation {
  domain_name: string;
  profile: "general" | "proactive" | null;
  policy: string;
  tool_signatures: ToolSignature[];
  customer_scenario: CustomerScenario;
  messages: ConversationMessage[];
  prefill_message_count: number;
  source_artifacts: Record<string, unknown>;
  invalid_reasons: string[];
  failure_labels: string[];
  terminal_state: string | null;
  generation_invalid_reason: string | null;
  terminal_error: string | null;
  agent_verification_result: AgentVerificationResult | null;
  user_verification_result: VerificationResult | null;
  environment_verification_result: VerificationResult | null;
  verification_reward: number | null;
  judge_generation_error: string | null;
  judge_diagnostics: Record<string, unknown>;
  rollout_id: string | null;
}

/** The Durable Object keeps the conversation as it is (plain JSON data); it is built and checked by this module only. */
export const ConversationState = z.custom<Conversation>((value) => typeof value === "object" && value !== null);

export function newConversation(task: z.output<typeof Task>): Conversation {
  return {
    domain_name: task.domain_name,
    profile: task.profile ?? null,
    policy: task.policy,
    tool_signatures: task.tools,
    customer_scenario: task.customer_scenario,
    messages: [],
    prefill_message_count: 0,
    source_artifacts: structuredClone(task.source_artifacts),
    invalid_reasons: [],
    failure_labels: [],
    terminal_state: null,
    generation_invalid_reason: null,
    terminal_error: null,
    agent_verification_result: null,
    user_verification_result: null,
    environment_verification_result: null,
    verification_reward: null,
    judge_generation_error: null,
    judge_diagnostics: {},
    rollout_id: task.rollout_id ?? null,
  };
}

export function findTool(state: Conversation, name: string): ToolSignature | undefined {
  return state.tool_signatures.find((tool) => tool.name === name);
}

export const normalizedDoc = (tool: ToolSignature): string => tool.doc ?? (tool.description || "");
export const normalizedParams = (tool: ToolSignature): Record<string, unknown> | null => tool.params ?? tool.parameters ?? null;

/** _record_generation_failure: the trajectory ends incomplete, the reason and label kept once each. */
export function recordFailure(state: Conversation, reason: string, label: string, error: string): void {
  state.generation_invalid_reason = reason;
  if (!state.invalid_reasons.includes(reason)) state.invalid_reasons.push(reason);
  if (!state.failure_labels.includes(label)) state.failure_labels.push(label);
  state.terminal_state = "incomplete";
  state.terminal_error = error;
  const errors = state.source_artifacts.terminal_errors;
  if (Array.isArray(errors)) errors.push(error);
  else state.source_artifacts.terminal_errors = [error];
}

export function failureLabelFor(source: Source): string {
  return source === "user" ? FailureLabel.user : source === "agent" ? FailureLabel.agent : FailureLabel.tool;
}

export function isCompleteMessage(message: ConversationMessage): boolean {
  if (message.type !== "text") return false;
  const text = pyStrOf(message.content);
  return text.includes(COMPLETE) || text.includes(TRANSFER);
}

/** str(content) for the values a message holds (text, or null when a model gave none). */
export function pyStrOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (content === null || content === undefined) return "None";
  return JSON.stringify(content);
}

export function dedupe(values: readonly string[]): string[] {
  return [...new Set(values)];
}

/** _response_provenance: the response's id and output index; the whole response once per id. */
export function provenance(
  state: Conversation,
  response: Record<string, unknown> | null | undefined,
  outputIndex: number | null = null,
  store = true,
): Partial<ConversationMessage> {
  if (!response) return {};
  const id = typeof response.id === "string" ? response.id : null;
  const stored = id !== null && state.messages.some((message) => message.response_id === id && message.responses);
  return { response_id: id, response_output_index: outputIndex, responses: store && !stored ? [response] : null };
}

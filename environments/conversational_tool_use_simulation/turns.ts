// The conversation's moves (NeMo Gym's routes): record the policy's outputs, simulate the next user turn or a tool result.
import type { Models } from "../../contracts/context.js";
import { EdgegymError } from "../../protocol/index.js";
import { validateMessage } from "./format.js";
import { SemanticError } from "./judge.js";
import { generateToolResult, generateUserMessage } from "./simulate.js";
import { type Conversation, type ConversationMessage, FailureLabel, findTool, InvalidReason, isCompleteMessage, provenance, recordFailure } from "./state.js";

export type Output =
  | { type: "message"; content: string; response_output_index?: number | null | undefined }
  | { type: "function_call"; tool_name: string; tool_call_id: string; arguments: string; response_output_index?: number | null | undefined };

type Json = Record<string, unknown>;

/** A simulator answer that could not be used (no text): NeMo Gym's caught exception, recorded as the trajectory's failure. */
function generationFailed(error: unknown): string | undefined {
  return error instanceof SemanticError ? error.message : undefined;
}

/** /record_agent_outputs: the policy's messages and calls in provider order; a duplicate id or invalid call ends it. */
export function recordOutputs(state: Conversation, outputs: readonly Output[], response: Json | null | undefined) {
  if (state.terminal_state) return { should_continue: false, terminal_state: state.terminal_state };
  const known = new Set(state.messages.filter((m) => m.type === "tool_call" && m.tool_call_id != null).map((m) => m.tool_call_id));
  for (const [index, output] of outputs.entries()) {
    const from = provenance(state, response, output.response_output_index ?? null, index === 0);
    const message: ConversationMessage =
      output.type === "message"
        ? { type: "text", source: "agent", content: output.content, ...from }
        : { type: "tool_call", source: "agent", tool_call_id: output.tool_call_id, tool_name: output.tool_name, arguments: output.arguments, ...from };
    if (output.type === "function_call") {
      if (known.has(output.tool_call_id)) {
        state.messages.push(message);
        recordFailure(state, InvalidReason.agentToolCall, FailureLabel.agent, `The tool call ID ${output.tool_call_id} is not unique within the trajectory.`);
        return { should_continue: false, terminal_state: state.terminal_state };
      }
      known.add(output.tool_call_id);
    }
    state.messages.push(message);
    // Validated once in the list, as NeMo Gym does (a first message counts the one just appended).
    const invalid = validateMessage(state, message);
    if (invalid) {
      recordFailure(state, invalid[0], FailureLabel.agent, invalid[1]);
      return { should_continue: false, terminal_state: state.terminal_state };
    }
  }
  return { should_continue: true, terminal_state: null };
}

/** /record_agent_step_limit: the last response's calls recorded unexecuted, then the trajectory ends excessive_length. */
export function recordStepLimit(
  state: Conversation,
  maxSteps: number,
  calls: readonly Extract<Output, { type: "function_call" }>[],
  response: Json | null | undefined,
) {
  if (state.terminal_state) return { should_continue: false, terminal_state: state.terminal_state };
  for (const [index, call] of calls.entries()) {
    const message: ConversationMessage = {
      type: "tool_call",
      source: "agent",
      tool_call_id: call.tool_call_id,
      tool_name: call.tool_name,
      arguments: call.arguments,
      ...provenance(state, response, call.response_output_index ?? null, index === 0),
    };
    state.messages.push(message);
    const invalid = validateMessage(state, message);
    if (invalid) {
      recordFailure(state, invalid[0], FailureLabel.agent, invalid[1]);
      return { should_continue: false, terminal_state: state.terminal_state };
    }
  }
  recordFailure(state, InvalidReason.length, FailureLabel.trajectory, `The maximum number of agent steps of ${maxSteps} has been reached`);
  return { should_continue: false, terminal_state: state.terminal_state };
}

/** /next_user_message: up to `attempts` simulated customer turns until one is valid; a stop marker completes the trajectory. */
export async function nextUserMessage(models: Models, state: Conversation, attempts: number) {
  if (state.terminal_state) return { message: "", should_continue: false, terminal_state: state.terminal_state };
  let text = "";
  let message: ConversationMessage | undefined;
  let invalid: ReturnType<typeof validateMessage>;
  try {
    for (let attempt = 0; attempt < Math.max(1, attempts); attempt++) {
      const [generated, response] = await generateUserMessage(models, state);
      text = generated;
      message = { type: "text", source: "user", content: generated, ...provenance(state, response) };
      invalid = validateMessage(state, message);
      if (!invalid) break;
    }
  } catch (error) {
    const failed = generationFailed(error);
    if (failed === undefined) throw error;
    recordFailure(state, InvalidReason.generation, FailureLabel.user, failed);
    return { message: "", should_continue: false, terminal_state: state.terminal_state };
  }
  state.messages.push(message!);
  if (invalid) recordFailure(state, invalid[0], FailureLabel.user, invalid[1]);
  else if (isCompleteMessage(message!)) state.terminal_state = "complete";
  return { message: text, should_continue: state.terminal_state === null, terminal_state: state.terminal_state };
}

const bad = (detail: string) => new EdgegymError(400, "bad_request", detail);

/** /execute_agent_tool_call: the call recorded (or a prefilled pending one resumed), then the tool simulator's result. */
export async function executeToolCall(
  models: Models,
  state: Conversation,
  call: { tool_name: string; tool_call_id: string; arguments: string; response?: Json | null | undefined },
  attempts: number,
) {
  if (state.terminal_state) {
    const error = `Trajectory is already terminal: ${state.terminal_state}`;
    return { output: { error }, schema_valid: false, error, should_continue: false, terminal_state: state.terminal_state };
  }
  const executed = new Set(state.messages.filter((m) => m.type === "tool_execution" && m.tool_call_id != null).map((m) => m.tool_call_id));
  let callMessage = state.messages.find((m) => m.type === "tool_call" && m.tool_call_id === call.tool_call_id && !executed.has(m.tool_call_id));
  const resumed = callMessage !== undefined;
  if (callMessage) {
    if (callMessage.tool_name !== call.tool_name || callMessage.arguments !== call.arguments) {
      throw bad(`Pending tool call ${call.tool_call_id} does not match the requested execution.`);
    }
  } else {
    if (state.messages.some((m) => m.type === "tool_call" && m.tool_call_id === call.tool_call_id))
      throw bad(`Tool call ${call.tool_call_id} has already been executed.`);
    callMessage = {
      type: "tool_call",
      source: "agent",
      tool_call_id: call.tool_call_id,
      tool_name: call.tool_name,
      arguments: call.arguments,
      ...provenance(state, call.response),
    };
    state.messages.push(callMessage);
    const invalid = validateMessage(state, callMessage);
    if (invalid) {
      recordFailure(state, invalid[0], FailureLabel.agent, invalid[1] || "Invalid tool call arguments.");
      return { output: { error: invalid[1] }, schema_valid: false, error: invalid[1], should_continue: false, terminal_state: state.terminal_state };
    }
  }
  if (!findTool(state, call.tool_name)) throw new Error(`AssertionError: the tool ${call.tool_name} is not in the session's tools`);
  let output = "";
  let valid = false;
  let lastError: string | null = null;
  let execution: ConversationMessage | undefined;
  try {
    for (let attempt = 0; attempt < Math.max(1, attempts); attempt++) {
      const [text, response] = await generateToolResult(models, state, resumed ? callMessage : undefined);
      output = text;
      execution = {
        type: "tool_execution",
        source: "environment",
        tool_call_id: call.tool_call_id,
        tool_name: call.tool_name,
        arguments: call.arguments,
        content: text,
        ...provenance(state, response),
      };
      const invalid = validateMessage(state, execution);
      if (!invalid) {
        valid = true;
        break;
      }
      lastError = invalid[1];
    }
  } catch (error) {
    const failed = generationFailed(error);
    if (failed === undefined) throw error;
    recordFailure(state, InvalidReason.generation, FailureLabel.tool, failed);
    return { output: { error: failed }, schema_valid: false, error: failed, should_continue: false, terminal_state: state.terminal_state };
  }
  execution!.schema_valid = valid;
  state.messages.push(execution!);
  if (!valid && lastError) recordFailure(state, InvalidReason.toolExecution, FailureLabel.tool, lastError);
  return { output, schema_valid: valid, error: valid ? null : lastError, should_continue: state.terminal_state === null, terminal_state: state.terminal_state };
}

/** /session_resume: who acts next in a (possibly prefilled) conversation. */
export function sessionResume(state: Conversation) {
  const executed = new Set(state.messages.filter((m) => m.type === "tool_execution" && m.tool_call_id != null).map((m) => m.tool_call_id));
  const pending = state.messages
    .filter((m) => m.type === "tool_call" && !executed.has(m.tool_call_id))
    .map((m) => ({ tool_name: m.tool_name ?? "", tool_call_id: m.tool_call_id ?? "", arguments: m.arguments ?? "" }));
  const base = { pending_tool_calls: [] as typeof pending, is_initial: false, terminal_state: null as string | null };
  if (state.terminal_state !== null) return { ...base, next_actor: "terminal", terminal_state: state.terminal_state };
  if (pending.length) return { ...base, next_actor: "environment", pending_tool_calls: pending };
  if (!state.messages.length) return { ...base, next_actor: "user", is_initial: true };
  const last = state.messages.at(-1)!;
  if (last.source === "agent" && last.type === "text") return { ...base, next_actor: "user" };
  if (last.source === "user" || last.type === "tool_execution") return { ...base, next_actor: "agent" };
  throw bad("Prefilled history does not end at a resumable state.");
}

// The contract between the policy's executor and the per-task planners.
import type { Conversation } from "../conversation.js";
import { canonicalJson } from "../text.js";

/** A tool call the policy wants to make (the server turns it into a wire tool call with an id). */
export interface PlannedCall {
  name: string;
  arguments: Record<string, unknown>;
}

/**
 * Everything a task needs, recomputed from scratch on every turn so the policy is stateless.
 * Later batches may depend on earlier outputs: they are only emitted once those outputs exist.
 */
export interface Plan {
  /** Calls in dependency order: a batch starts only after every earlier call has its output. */
  batches: PlannedCall[][];
  /** The final text, once every planned call has an output (or nothing is left to call). */
  answer: (conversation: Conversation) => string;
}

/** Returns a plan when it recognises the task, or null to let the next planner try. */
export type Planner = (conversation: Conversation) => Plan | null;

/** The output of an already made call with these exact name and arguments, if any. */
export function outputOf(conversation: Conversation, call: PlannedCall): unknown {
  const key = canonicalJson(call.arguments);
  return conversation.calls.find((c) => c.name === call.name && c.key === key && c.hasOutput)?.output;
}

// The simulator's "model": a pure, deterministic choice of the next assistant message for a chat request.
import { readConversation, type Conversation } from "./conversation.js";
import { planCounter } from "./planners/counter.js";
import { planGeneric, textAnswer } from "./planners/generic.js";
import type { Plan, PlannedCall, Planner } from "./planners/types.js";
import { planSynonyms } from "./planners/synonyms.js";
import { planWeather } from "./planners/weather.js";
import type { ChatCompletionRequest } from "./schema.js";
import { canonicalJson } from "./text.js";

export type { PlannedCall } from "./planners/types.js";

export interface PolicyDecision {
  /** Text of the reply; null when the reply is only tool calls. */
  content: string | null;
  tool_calls: PlannedCall[];
}

// Most specific first: each planner returns null when the task is not its kind.
const PLANNERS: Planner[] = [planSynonyms, planCounter, planWeather, planGeneric];

// However a conversation looks, stop calling tools after this many rounds and answer.
export const MAX_TOOL_ROUNDS = 12;

function text(content: string): PolicyDecision {
  return { content, tool_calls: [] };
}

function choosePlan(conversation: Conversation): Plan | null {
  if (conversation.tools.length === 0) return null;
  for (const planner of PLANNERS) {
    const plan = planner(conversation);
    if (plan) return plan;
  }
  return null;
}

/**
 * Walks the plan against the calls already made: the first batch with calls still to make is
 * emitted, provided every earlier call has its output; once all planned calls have outputs the
 * plan's answer is the reply. Calls are matched by name and arguments, each made call used once.
 */
function nextStep(plan: Plan, conversation: Conversation): PolicyDecision {
  const unused = [...conversation.calls];
  let waiting = false;
  for (const batch of plan.batches) {
    const missing: PlannedCall[] = [];
    for (const call of batch) {
      const key = canonicalJson(call.arguments);
      const at = unused.findIndex((made) => made.name === call.name && made.key === key);
      if (at < 0) {
        missing.push(call);
        continue;
      }
      if (!unused[at]!.hasOutput) waiting = true;
      unused.splice(at, 1);
    }
    if (missing.length === 0) continue;
    // A call without its output means the client did not run it; answering beats looping.
    if (waiting) break;
    return { content: null, tool_calls: conversation.parallel ? missing : missing.slice(0, 1) };
  }
  return text(plan.answer(conversation));
}

export function decide(request: ChatCompletionRequest): PolicyDecision {
  const conversation = readConversation(request);
  let plan = choosePlan(conversation);
  if (!plan) return text(textAnswer(conversation));
  if (conversation.rounds >= MAX_TOOL_ROUNDS) return text(plan.answer(conversation));

  // tool_choice "required" means this turn must call something even if the task plan is done.
  if (request.tool_choice === "required" && conversation.calls.length === 0) {
    const decision = nextStep(plan, conversation);
    if (decision.tool_calls.length > 0) return decision;
    plan = planGeneric(conversation);
    if (!plan) return decision;
  }
  return nextStep(plan, conversation);
}

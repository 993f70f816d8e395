// Counter tasks (NeMo Gym's example_session_state_mgmt): "add 4 then add 5 then get the count".
import { describeOutput, toolProperties, type Conversation, type ToolInfo } from "../conversation.js";
import { isRecord, numbers } from "../text.js";
import { outputOf, type Plan, type PlannedCall } from "./types.js";

interface CounterTools {
  increment: ToolInfo;
  /** The numeric argument of the increment tool ("count"). */
  param: string;
  read: ToolInfo | undefined;
}

function counterTools(tools: ToolInfo[]): CounterTools | null {
  for (const increment of tools) {
    if (!/increment|add|increase/i.test(increment.name)) continue;
    const { properties } = toolProperties(increment);
    const param = Object.keys(properties).find((name) => ["integer", "number"].includes(String(properties[name]?.["type"])));
    if (!param) continue;
    const read = tools.find((t) => t !== increment && /get|read|value|current/i.test(t.name) && toolProperties(t).required.length === 0);
    return { increment, param, read };
  }
  return null;
}

const ADD = /\b(add|adds|plus|increment|increase|raise|bump|up)\b/i;
const READ = /\b(get|what|show|tell|read|check|report|current|return)\b|\bcount\b|\bvalue\b|\btotal\b/i;

/**
 * Turns the user's clauses into calls: "add N" increments, "get the count" reads.
 * A clause with only a number ("add 4 and 5") repeats the previous verb.
 */
function clauseCalls(text: string, tools: CounterTools): PlannedCall[] {
  const calls: PlannedCall[] = [];
  let lastWasAdd = false;
  for (const clause of text.split(/\bthen\b|\band\b|[,;]|\.\s/i)) {
    const values = numbers(clause);
    if (values.length > 0 && (ADD.test(clause) || lastWasAdd)) {
      for (const value of values) calls.push({ name: tools.increment.name, arguments: { [tools.param]: value } });
      lastWasAdd = true;
    } else if (tools.read && READ.test(clause)) {
      calls.push({ name: tools.read.name, arguments: {} });
      lastWasAdd = false;
    }
  }
  return calls;
}

/** Consecutive calls to the same tool commute, so they share a batch (parallel calls). */
function batchRuns(calls: PlannedCall[]): PlannedCall[][] {
  const batches: PlannedCall[][] = [];
  for (const call of calls) {
    const last = batches.at(-1);
    // Reads are never merged: each one should see the increments before it.
    if (last && last[0]?.name === call.name && Object.keys(call.arguments).length > 0) last.push(call);
    else batches.push([call]);
  }
  return batches;
}

function counterAnswer(conversation: Conversation, calls: PlannedCall[], tools: CounterTools): string {
  const reads = calls.filter((c) => c.name === tools.read?.name);
  const output = reads.length > 0 ? outputOf(conversation, reads[reads.length - 1]!) : undefined;
  if (isRecord(output)) {
    const value = Object.values(output).find((v) => typeof v === "number");
    if (value !== undefined) return `The current count is ${value}.`;
  }
  if (output !== undefined) return `The counter reports: ${describeOutput(output)}`;
  const added = calls.filter((c) => c.name === tools.increment.name).map((c) => c.arguments[tools.param]);
  return added.length > 0 ? `Done: I added ${added.join(" and ")} to the counter.` : "Done.";
}

export function planCounter(conversation: Conversation): Plan | null {
  const tools = counterTools(conversation.tools);
  if (!tools) return null;
  const calls = clauseCalls(conversation.user, tools);
  if (calls.length === 0) return null;
  return { batches: batchRuns(calls), answer: (c) => counterAnswer(c, calls, tools) };
}

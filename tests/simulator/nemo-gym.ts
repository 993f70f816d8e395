// Test helpers: NeMo Gym fixture rows as Chat Completions requests, fake tool servers, and a turn driver.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { decide, type PlannedCall } from "../../local/simulator/policy.js";
import { chatCompletionRequestSchema, type ChatCompletionRequestInput } from "../../local/simulator/schema.js";

const inputItemSchema = z.looseObject({ role: z.string(), content: z.string() });
const responsesToolSchema = z.looseObject({
  name: z.string(),
  description: z.string().optional(),
  parameters: z.record(z.string(), z.unknown()),
});
export const rowSchema = z.looseObject({
  responses_create_params: z.looseObject({
    input: z.array(inputItemSchema),
    tools: z.array(responsesToolSchema),
    parallel_tool_calls: z.boolean().optional(),
  }),
});
export type Row = z.infer<typeof rowSchema>;

export function loadRows<T extends z.ZodType<Row>>(name: string, schema: T): Array<z.infer<T>> {
  const path = fileURLToPath(new URL(`../fixtures/nemo-gym/${name}/example.jsonl`, import.meta.url));
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim().length > 0)
    .map((line) => schema.parse(JSON.parse(line)));
}

type Messages = ChatCompletionRequestInput["messages"];

function chatRole(role: string): "system" | "user" | "assistant" {
  if (role === "user" || role === "assistant") return role;
  return "system"; // NeMo Gym's developer and system messages both reach vLLM as system
}

/** Converts a Responses API row the way the model proxy does: developer → system, flat tools → function tools. */
export function toChatRequest(row: Row): ChatCompletionRequestInput {
  const params = row.responses_create_params;
  const messages: Messages = params.input.map((item) => ({ role: chatRole(item.role), content: item.content }));
  return {
    model: "edgegym-sim",
    messages,
    tools: params.tools.map((tool) => ({
      type: "function",
      function: { name: tool.name, description: tool.description ?? "", parameters: tool.parameters },
    })),
    ...(params.parallel_tool_calls === undefined ? {} : { parallel_tool_calls: params.parallel_tool_calls }),
  };
}

/** A fake resources server: answers a tool call with NeMo Gym's output shape. */
export type FakeTools = (call: PlannedCall) => unknown;

export interface Rollout {
  calls: PlannedCall[];
  /** Assistant messages produced, the final text one included. */
  turns: number;
  final: string | null;
  messages: Messages;
}

/** Runs the policy turn after turn, feeding fake tool outputs back, until it answers in text. */
export function drive(row: Row, tools: FakeTools, maxTurns = 6): Rollout {
  const request = toChatRequest(row);
  const messages: Messages = [...request.messages];
  const calls: PlannedCall[] = [];
  for (let turn = 1; turn <= maxTurns; turn += 1) {
    const decision = decide(chatCompletionRequestSchema.parse({ ...request, messages }));
    if (decision.tool_calls.length === 0) return { calls, turns: turn, final: decision.content, messages };
    const ids = decision.tool_calls.map((_, i) => `call_${turn}_${i}`);
    messages.push({
      role: "assistant",
      content: decision.content,
      tool_calls: decision.tool_calls.map((call, i) => ({
        id: ids[i]!,
        type: "function",
        function: { name: call.name, arguments: JSON.stringify(call.arguments) },
      })),
    });
    decision.tool_calls.forEach((call, i) => {
      calls.push(call);
      messages.push({ role: "tool", tool_call_id: ids[i]!, content: JSON.stringify(tools(call)) });
    });
  }
  return { calls, turns: maxTurns, final: null, messages };
}

/** NeMo Gym's get_synonym_value: the sum of the synonym's character codes. */
export function synonymValue(synonym: string): number {
  return [...synonym].reduce((sum, char) => sum + char.charCodeAt(0), 0);
}

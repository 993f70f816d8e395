// One rollout, as NeMo Gym's simple agent runs it: seed → (model → tools)* until a final answer or max_steps → verify.
import { RESERVED_ROUTES } from "../../contracts/names.js";
import { jsonLimitError } from "../../http/json.js";
import { normalizeToolName } from "../../protocol/mcp-names.js";
import type { DatasetRow, FunctionCallItem, Item, Response as ResponsesResponse, Usage } from "../../protocol/index.js";
import { environmentCall, modelTurn, type RolloutLimits, type RolloutParts, seedSession, verifyRollout } from "./calls.js";
import { mcpCalledTool, mcpOfferedTools } from "./tool-names.js";
import { accumulateUsage } from "./usage.js";

export type { RolloutLimits, RolloutParts } from "./calls.js";

const TOOL_NAME = /^[A-Za-z0-9_.-]+$/;

async function callTool(call: FunctionCallItem, sessionId: string, parts: RolloutParts, limits: RolloutLimits): Promise<string> {
  // Arguments nested past the limits could not cross to the environment (structured clone): the model is told, as for bad JSON.
  const refused = jsonLimitError(call.arguments, "the arguments");
  if (refused) return JSON.stringify({ error: `Invalid tool call arguments: ${refused.message}` });
  let args: unknown;
  try {
    args = JSON.parse(call.arguments);
  } catch (error) {
    // As NeMo Gym: the model sees why its arguments were rejected and may try again.
    return JSON.stringify({ error: `Invalid tool call arguments: ${error instanceof Error ? error.message : String(error)}` });
  }
  // A model that names tools as MCP clients show them (`mcp__<server>__<tool>`) reaches the bare tool; the record keeps
  // the name it wrote, and /verify normalizes it for the verifier (NeMo Gym's normalize_tool_name). Under tool_names=mcp
  // only the names the model was offered (this environment's MCP names) reach a tool.
  const name = parts.mcp ? mcpCalledTool(call.name, parts.mcp) : normalizeToolName(call.name);
  if (name === undefined || RESERVED_ROUTES.has(name) || !TOOL_NAME.test(name)) return JSON.stringify({ error: `Unknown tool: ${call.name}` });
  // Any answer, error or not, is a tool output the model should see (NeMo Gym does the same). A call that does not answer
  // (a hung tool, a broken environment Worker) fails the rollout instead: tool_timeout or tool_error, retried as a whole.
  const outcome = await environmentCall(() => parts.resources.tool(sessionId, name, args, parts.owner), `tool ${name}`, limits, "environment_error");
  return JSON.stringify(outcome.body);
}

/** Runs one rollout and returns NeMo Gym's verify response for it. */
export async function runRollout(row: DatasetRow, parts: RolloutParts, limits: RolloutLimits): Promise<Record<string, unknown>> {
  const sessionId = await seedSession(row, parts, limits);

  // Under tool_names=mcp the model is offered the environment's listing by MCP names, as a harness offers it.
  const params = parts.mcp
    ? { ...row.responses_create_params, tools: mcpOfferedTools(row.responses_create_params.tools, parts.mcp) }
    : row.responses_create_params;
  const input: Item[] = typeof params.input === "string" ? [{ type: "message", role: "user", content: params.input }] : params.input;
  const produced: Item[] = [];
  let usage: Usage | undefined;
  let last: ResponsesResponse | undefined;

  for (let step = 1; ; step++) {
    last = await modelTurn(parts, { ...params, input: [...input, ...produced] }, sessionId, limits);
    produced.push(...last.output);
    usage = accumulateUsage(usage, last.usage);
    if (last.incomplete_details) break;

    const calls = last.output.filter((item): item is FunctionCallItem => item.type === "function_call");
    const answered = last.output.some((item) => item.type === "message" && item.role === "assistant");
    if (calls.length === 0 && answered) break;
    // Calls run in order, as NeMo Gym runs them: a stateful environment sees them as the model wrote them.
    for (const call of calls) {
      // id and status null, as NeMo Gym writes them.
      produced.push({ type: "function_call_output", call_id: call.call_id, output: await callTool(call, sessionId, parts, limits), id: null, status: null });
    }
    if (step >= limits.maxSteps) break;
  }

  const request = { ...row, response: { ...last, output: produced, usage: usage ?? null } };
  return verifyRollout(sessionId, request, parts, limits);
}

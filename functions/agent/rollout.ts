// One rollout, as NeMo Gym's simple agent runs it: seed → (model → tools)* until a final answer or max_steps → verify.
import { Response as ResponsesResponse, type DatasetRow, type FunctionCallItem, type Item, type Usage } from "../../protocol/index.js";
import { RolloutFailure, type FailureClass } from "./failure.js";

export interface RolloutLimits {
  maxSteps: number;
  /** Whole-rollout deadline; every call below is cut off by it. */
  deadline: AbortSignal;
  modelTimeoutMs: number;
  toolTimeoutMs: number;
}

export interface RolloutParts {
  model: Fetcher;
  resources: Fetcher;
}

export const SESSION_HEADER = "x-session-id";
/** Routes of the resources server that a model's tool call must never reach. */
const NOT_TOOLS = new Set(["seed_session", "verify", "aggregate_metrics", "tools", "health"]);

export async function post(
  target: Fetcher,
  path: string,
  body: unknown,
  signal: AbortSignal,
  failure: FailureClass,
  sessionId?: string,
): Promise<globalThis.Response> {
  try {
    return await target.fetch(`http://internal${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(sessionId ? { [SESSION_HEADER]: sessionId } : {}) },
      body: JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (signal.aborted) throw new RolloutFailure("timeout", `${path} did not answer before the deadline`);
    throw new RolloutFailure(failure, `${path} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export async function expectOk(response: globalThis.Response, what: string, failure: FailureClass): Promise<unknown> {
  const text = await response.text();
  if (!response.ok) throw new RolloutFailure(failure, `${what} answered ${response.status}: ${text.slice(0, 2000)}`, response.status);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new RolloutFailure(failure, `${what} answered with a body that is not JSON: ${text.slice(0, 200)}`);
  }
}

function addUsage(total: Usage | undefined, usage: Usage | null | undefined): Usage | undefined {
  if (!usage) return total;
  if (!total) return { ...usage };
  return {
    ...total,
    input_tokens: total.input_tokens + usage.input_tokens,
    output_tokens: total.output_tokens + usage.output_tokens,
    total_tokens: total.total_tokens + usage.total_tokens,
  };
}

export function within(limits: RolloutLimits, ms: number): AbortSignal {
  return AbortSignal.any([limits.deadline, AbortSignal.timeout(ms)]);
}

async function callTool(call: FunctionCallItem, sessionId: string, parts: RolloutParts, limits: RolloutLimits): Promise<string> {
  let args: unknown;
  try {
    args = JSON.parse(call.arguments);
  } catch (error) {
    // As NeMo Gym: the model sees why its arguments were rejected and may try again.
    return JSON.stringify({ error: `Invalid tool call arguments: ${error instanceof Error ? error.message : String(error)}` });
  }
  if (NOT_TOOLS.has(call.name) || !/^[A-Za-z0-9_.-]+$/.test(call.name)) {
    return JSON.stringify({ error: `Unknown tool: ${call.name}` });
  }
  const signal = within(limits, limits.toolTimeoutMs);
  try {
    // Any answer, error or not, is a tool output the model should see (NeMo Gym does the same).
    const response = await parts.resources.fetch(`http://internal/${call.name}`, {
      method: "POST",
      headers: { "content-type": "application/json", [SESSION_HEADER]: sessionId },
      body: JSON.stringify(args),
      signal,
    });
    return await response.text();
  } catch (error) {
    if (limits.deadline.aborted) throw new RolloutFailure("timeout", `the rollout deadline passed during tool ${call.name}`);
    return JSON.stringify({ error: `Tool ${call.name} failed: ${error instanceof Error ? error.message : String(error)}` });
  }
}

/** Runs one rollout and returns NeMo Gym's verify response for it. */
export async function runRollout(row: DatasetRow, parts: RolloutParts, limits: RolloutLimits): Promise<Record<string, unknown>> {
  const seeded = await post(parts.resources, "/seed_session", row, within(limits, limits.toolTimeoutMs), "seed_failed");
  await expectOk(seeded, "/seed_session", "seed_failed");
  const sessionId = seeded.headers.get(SESSION_HEADER);
  if (!sessionId) throw new RolloutFailure("seed_failed", "/seed_session answered without a session id");

  const params = row.responses_create_params;
  const input: Item[] = typeof params.input === "string" ? [{ type: "message", role: "user", content: params.input }] : params.input;
  const produced: Item[] = [];
  let usage: Usage | undefined;
  let last: ResponsesResponse | undefined;

  for (let step = 1; ; step++) {
    const answer = await post(
      parts.model,
      "/v1/responses",
      { ...params, input: [...input, ...produced] },
      within(limits, limits.modelTimeoutMs),
      "model_error",
      sessionId,
    );
    const parsed = ResponsesResponse.safeParse(await expectOk(answer, "the model", "model_error"));
    if (!parsed.success) throw new RolloutFailure("model_invalid_response", `the model's response is not a Response: ${parsed.error.message}`);
    last = parsed.data;
    produced.push(...last.output);
    usage = addUsage(usage, last.usage);
    if (last.incomplete_details) break;

    const calls = last.output.filter((item): item is FunctionCallItem => item.type === "function_call");
    const answered = last.output.some((item) => item.type === "message" && item.role === "assistant");
    if (calls.length === 0 && answered) break;
    // Calls run in order, as NeMo Gym runs them: a stateful environment sees them as the model wrote them.
    for (const call of calls) {
      produced.push({ type: "function_call_output", call_id: call.call_id, output: await callTool(call, sessionId, parts, limits) });
    }
    if (step >= limits.maxSteps) break;
  }

  const response = { ...last, output: produced, usage: usage ?? null };
  const verified = await post(parts.resources, "/verify", { ...row, response }, within(limits, limits.toolTimeoutMs), "verify_failed", sessionId);
  const result = await expectOk(verified, "/verify", "verify_failed");
  if (!result || typeof result !== "object" || typeof (result as { reward?: unknown }).reward !== "number") {
    throw new RolloutFailure("verify_failed", "/verify answered without a numeric reward");
  }
  return result as Record<string, unknown>;
}

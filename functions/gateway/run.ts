// POST /run: one rollout, checked here and run by the agent over RPC; a failed one answered as the caller's tool expects.
import type { Context } from "hono";
import { z } from "zod";
import { ENVIRONMENT_HEADER } from "../../contracts/names.js";
import { type JsonRecord, type ModelChoice, type RpcError, withinMs } from "../../contracts/rpc.js";
import { raise, readJson, rpcError } from "../../http/errors.js";
import {
  NG_FAILURE_CLASS,
  NG_FAILURE_TERMINAL,
  NG_NO_PERSIST,
  nemoGymFailure,
  nemoGymRolloutId,
  parseOr400,
  ROLLOUT_ID,
  RunRow,
} from "../../protocol/index.js";
import { callerOf, type GatewayContext, requestIdOf } from "./caller.js";
import { ModelFields, modelChoice } from "./model-choice.js";
import { gatewayPorts } from "./ports.js";

/** /run's options; an unknown one is a 400 (a misspelt option silently ignored would run something else). */
export const RunQuery = z.strictObject({
  ...ModelFields.shape,
  environment: z.string().min(1).optional(),
  max_steps: z.coerce.number().int().positive().optional(),
  /**
   * How a failed rollout is answered. `record`: a 200 carrying NeMo Gym's failure fields (its collector ends the whole
   * run on any non-2xx /run, and routes such a record to its failures file); `error`: the error envelope and its status
   * (NeMo RL counts a 5xx as an infrastructure failure and retries it). Unset: `record` for a row from NeMo Gym's
   * collector, which always stamps `_ng_rollout_index` (NeMo RL never sends it), `error` otherwise.
   */
  failures: z.enum(["record", "error"]).optional(),
});

/** The placeholder Response of a failed rollout (NeMo Gym's agents answer an empty one with reward 0). */
function emptyResponse(model: string): JsonRecord {
  return {
    id: `resp_failed_${crypto.randomUUID().replace(/-/g, "")}`,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    model,
    output: [],
    parallel_tool_calls: false,
    tool_choice: "none",
    tools: [],
  };
}

/** A failed rollout as NeMo Gym's failure record: the row, an empty response, reward 0, the class and why. */
export function failureRecord(row: RunRow, error: RpcError, choice: ModelChoice): JsonRecord {
  const { failureClass, terminal } = nemoGymFailure(error.status, error.code);
  // A row re-fed from an earlier output may carry stale results and routing fields: the fresh ones replace them.
  const { reward: _reward, response: _response, [NG_FAILURE_CLASS]: _class, [NG_FAILURE_TERMINAL]: _terminal, [NG_NO_PERSIST]: _skip, ...rest } = row;
  const id = nemoGymRolloutId(row);
  return {
    ...rest,
    response: emptyResponse(choice.policy?.model ?? "unknown"),
    reward: 0,
    error_message: error.message,
    error_code: error.code,
    error_status: error.status,
    [NG_FAILURE_CLASS]: failureClass,
    ...(terminal ? { [NG_FAILURE_TERMINAL]: true } : {}),
    ...(id ? { [ROLLOUT_ID]: id } : {}),
  };
}

/** What every row of a /run call (or a batch) shares: the environment, the step cap, the model choice, the caller. */
export function runOptions(c: Context<GatewayContext>, query: z.output<typeof RunQuery>) {
  const environment = query.environment ?? c.req.header(ENVIRONMENT_HEADER);
  const choice = modelChoice(c, query, gatewayPorts(c.env).config.POLICY_URL_ALLOW);
  return {
    choice,
    options: {
      ...(environment ? { environment } : {}),
      ...(query.max_steps ? { maxSteps: query.max_steps } : {}),
      ...choice,
      // The rollout's sessions are bound to the caller's token name.
      caller: callerOf(c).name,
      requestId: requestIdOf(c),
    },
  };
}

/**
 * One rollout by the agent; the answer is the record, or the failure as asked: NeMo Gym's failure record (`record`) or
 * the error (`error`). The agent bounds the rollout by its own deadline; this bound only outlives it, so a call never
 * waits unbounded. A call that fails outright (the agent's isolate lost, or this bound passed) is a failed rollout too.
 */
export async function runOne(
  c: Context<GatewayContext>,
  row: RunRow,
  shared: ReturnType<typeof runOptions>,
  failures: z.output<typeof RunQuery>["failures"],
): Promise<{ ok: true; record: JsonRecord } | { ok: false; error: RpcError }> {
  const call = withinMs(c.env.AGENT.run(row, shared.options), gatewayPorts(c.env).config.RUN_TIMEOUT_MS, "the agent");
  const result = await call.catch((error: unknown) => ({ ok: false as const, error: rpcError(error) }));
  if (result.ok) return { ok: true, record: result.value };
  const mode = failures ?? (row._ng_rollout_index !== undefined ? "record" : "error");
  return mode === "record" ? { ok: true, record: failureRecord(row, result.error, shared.choice) } : result;
}

export async function run(c: Context<GatewayContext>): Promise<Response> {
  const query = parseOr400(RunQuery, c.req.query(), "run query");
  const row = parseOr400(RunRow, await readJson(c), "dataset row");
  const result = await runOne(c, row, runOptions(c, query), query.failures);
  return result.ok ? c.json(result.record) : raise(result.error);
}

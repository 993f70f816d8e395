// One row to one scored record, the same for /run and the queue consumer.
import { EdgegymError, ROLLOUT_ID, type DatasetRow } from "../../protocol/index.js";
import type { AgentEnv } from "../bindings.js";
import { resolveEnvironment } from "./resolve.js";
import { runRollout, type RolloutLimits } from "./rollout.js";

const DEFAULTS = { maxSteps: 32, rolloutTimeoutMs: 900_000, modelTimeoutMs: 300_000, toolTimeoutMs: 60_000 };

export function positiveInt(value: string | undefined, fallback: number, what: string): number {
  if (value === undefined || value === "") return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new EdgegymError(400, "invalid_request", `${what} must be a positive integer, got "${value}"`);
  return n;
}

export function rolloutLimits(env: AgentEnv, maxSteps: string | undefined, signal?: AbortSignal): RolloutLimits {
  const timeout = AbortSignal.timeout(positiveInt(env.ROLLOUT_TIMEOUT_MS, DEFAULTS.rolloutTimeoutMs, "ROLLOUT_TIMEOUT_MS"));
  return {
    maxSteps: positiveInt(maxSteps ?? env.MAX_STEPS, DEFAULTS.maxSteps, "max_steps"),
    deadline: signal ? AbortSignal.any([signal, timeout]) : timeout,
    modelTimeoutMs: positiveInt(env.MODEL_TIMEOUT_MS, DEFAULTS.modelTimeoutMs, "MODEL_TIMEOUT_MS"),
    toolTimeoutMs: positiveInt(env.TOOL_TIMEOUT_MS, DEFAULTS.toolTimeoutMs, "TOOL_TIMEOUT_MS"),
  };
}

export interface Execution {
  environment: string;
  record: Record<string, unknown>;
}

/** Resolves the row's environment, runs the rollout, and adds the bookkeeping fields a rollout record carries. */
export async function executeRow(
  env: AgentEnv,
  row: DatasetRow,
  options: { environment?: string; maxSteps?: string; signal?: AbortSignal } = {},
): Promise<Execution> {
  const { name, fetcher } = resolveEnvironment(env, row, options.environment);
  const limits = rolloutLimits(env, options.maxSteps, options.signal);
  const agentRef = row.agent_ref ?? { type: "responses_api_agents", name: `${name}_simple_agent` };
  const result = await runRollout({ ...row, agent_ref: agentRef }, { model: env.MODEL_PROXY, resources: fetcher }, limits);
  const rolloutId = typeof row[ROLLOUT_ID] === "string" ? row[ROLLOUT_ID] : crypto.randomUUID();
  return { environment: name, record: { ...result, agent_ref: agentRef, [ROLLOUT_ID]: rolloutId } };
}

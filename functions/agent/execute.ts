// One row to one scored record, the same for /run and the queue consumer.
import { EdgegymError, ROLLOUT_ID, ROLLOUT_INDEX, TASK_INDEX, type DatasetRow } from "../../protocol/index.js";
import type { AgentEnv } from "../bindings.js";
import { runGymnasiumRollout } from "./gymnasium.js";
import { environmentKind } from "./kind.js";
import { resolveEnvironment } from "./resolve.js";
import { runRollout, within, type RolloutLimits } from "./rollout.js";

const DEFAULTS = { maxSteps: 32, rolloutTimeoutMs: 900_000, modelTimeoutMs: 300_000, toolTimeoutMs: 60_000 };
/** NeMo Gym's gymnasium_agent default max_steps, for an environment that declares none. */
const GYMNASIUM_MAX_STEPS = 10;

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

/** Resolves the row's environment, runs the loop its kind needs, and adds the bookkeeping fields a rollout record carries. */
export async function executeRow(
  env: AgentEnv,
  row: DatasetRow,
  options: { environment?: string; maxSteps?: string; signal?: AbortSignal } = {},
): Promise<Execution> {
  const { name, fetcher } = resolveEnvironment(env, row, options.environment);
  const limits = rolloutLimits(env, options.maxSteps, options.signal);
  const parts = { model: env.MODEL_PROXY, resources: fetcher };
  const rolloutId = typeof row[ROLLOUT_ID] === "string" ? row[ROLLOUT_ID] : crypto.randomUUID();
  const kind = await environmentKind(name, fetcher, within(limits, limits.toolTimeoutMs));

  if (kind.kind === "gymnasium") {
    const agentRef = row.agent_ref ?? { type: "responses_api_agents", name: `${name}_gymnasium_agent` };
    // The request's max_steps, else the environment's own (NeMo Gym's per-agent config), else the agent's MAX_STEPS, else NeMo Gym's 10.
    const declared = kind.maxSteps === undefined ? undefined : String(kind.maxSteps);
    const maxSteps = positiveInt(options.maxSteps ?? declared ?? env.MAX_STEPS, GYMNASIUM_MAX_STEPS, "max_steps");
    const result = await runGymnasiumRollout({ ...row, agent_ref: agentRef }, parts, { ...limits, maxSteps });
    // NeMo Gym's run response does not echo the row; its collection adds the row's indices and agent_ref, as here.
    const indices = Object.fromEntries([TASK_INDEX, ROLLOUT_INDEX].filter((key) => row[key] !== undefined).map((key) => [key, row[key]]));
    return { environment: name, record: { ...result, ...indices, agent_ref: agentRef, [ROLLOUT_ID]: rolloutId } };
  }

  const agentRef = row.agent_ref ?? { type: "responses_api_agents", name: `${name}_simple_agent` };
  const result = await runRollout({ ...row, agent_ref: agentRef }, parts, limits);
  return { environment: name, record: { ...result, agent_ref: agentRef, [ROLLOUT_ID]: rolloutId } };
}

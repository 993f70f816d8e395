// One row to one scored record, the same for /run and the queue consumer.
import type { AgentConfig } from "../../contracts/config.js";
import type { RunOptions } from "../../contracts/rpc.js";
import { type DatasetRow, EdgegymError, nemoGymRolloutId, ROLLOUT_ID, ROLLOUT_INDEX, TASK_INDEX } from "../../protocol/index.js";
import type { RolloutLimits } from "./calls.js";
import { runGymnasiumRollout } from "./gymnasium.js";
import { environmentKind } from "./kind.js";
import type { AgentPorts } from "./ports.js";
import { resolveEnvironment } from "./resolve.js";
import { runRollout } from "./rollout.js";
import { runConversation, simulatesUser } from "./user-turns.js";

/** NeMo Gym's gymnasium_agent default max_steps, for an environment that declares none. */
const GYMNASIUM_MAX_STEPS = 10;
/** The simple agent's default cap on model turns. */
const SIMPLE_MAX_STEPS = 32;

export function rolloutLimits(config: AgentConfig, maxSteps: number): RolloutLimits {
  return {
    maxSteps,
    deadlineAt: Date.now() + config.ROLLOUT_TIMEOUT_MS,
    modelTimeoutMs: config.MODEL_TIMEOUT_MS,
    toolTimeoutMs: config.TOOL_TIMEOUT_MS,
  };
}

export interface Execution {
  environment: string;
  record: Record<string, unknown>;
}

/** Resolves the row's environment, runs the loop its kind needs, and adds the bookkeeping fields a rollout record carries. */
export async function executeRow(ports: AgentPorts, row: DatasetRow, options: RunOptions = {}): Promise<Execution> {
  const { name, environment } = resolveEnvironment(ports, row, options.environment);
  const limits = rolloutLimits(ports.config, SIMPLE_MAX_STEPS);
  const choice = {
    ...(options.policy ? { policy: options.policy } : {}),
    ...(options.returnTokenIds !== undefined ? { returnTokenIds: options.returnTokenIds } : {}),
    ...(options.toolNames !== undefined ? { toolNames: options.toolNames } : {}),
  };
  // NeMo Gym's id for the row (its own, or `<task>-<rollout>`), else a fresh one in the same alphabet.
  const rolloutId = nemoGymRolloutId(row) ?? crypto.randomUUID();
  // A rollout's sessions belong to it and to the caller's token (a job's rollouts: to the agent itself).
  const owner = { rollout: rolloutId, token: options.caller ?? "(agent)" };
  const parts = { model: ports.model, resources: environment, owner, ...(Object.keys(choice).length ? { choice } : {}) };
  const kind = await environmentKind(name, environment, limits);
  const mcpNames = options.toolNames === "mcp";

  if (kind.kind === "gymnasium") {
    // A gymnasium environment's tools run inside its step, not as calls an MCP client makes: no MCP names to show.
    if (mcpNames)
      throw new EdgegymError(400, "invalid_request", `tool_names=mcp: ${name} is a gymnasium environment (reset/step); its tools are not served over MCP`);
    const agentRef = row.agent_ref ?? { type: "responses_api_agents", name: `${name}_gymnasium_agent` };
    // The request's max_steps, else the environment's own (NeMo Gym's per-agent config), else the agent's MAX_STEPS, else NeMo Gym's 10.
    const maxSteps = options.maxSteps ?? kind.max_steps ?? ports.config.MAX_STEPS ?? GYMNASIUM_MAX_STEPS;
    const result = await runGymnasiumRollout({ ...row, agent_ref: agentRef }, parts, { ...limits, maxSteps });
    // NeMo Gym's run response does not echo the row; its collection adds the row's indices and agent_ref, as here.
    const indices = Object.fromEntries([TASK_INDEX, ROLLOUT_INDEX].filter((key) => row[key] !== undefined).map((key) => [key, row[key]]));
    return { environment: name, record: { ...result, ...indices, agent_ref: agentRef, [ROLLOUT_ID]: rolloutId } };
  }

  const agentRef = row.agent_ref ?? { type: "responses_api_agents", name: `${name}_simple_agent` };
  // As for gymnasium: the request's, else the environment's own cap, else the agent's MAX_STEPS, else 32.
  const maxSteps = options.maxSteps ?? kind.max_steps ?? ports.config.MAX_STEPS ?? SIMPLE_MAX_STEPS;
  // The MCP server's name is the environment's, as its /seed_session metadata names it (McpServerMetadata.server_name).
  const naming = mcpNames ? { mcp: { server: name, tools: kind.tools } } : {};
  // An environment with a simulated user (its conversation routes) runs NeMo Gym's conversational loop (user-turns.ts).
  const loop = simulatesUser(kind) ? runConversation : runRollout;
  const result = await loop({ ...row, agent_ref: agentRef }, { ...parts, ...naming }, { ...limits, maxSteps });
  return { environment: name, record: { ...result, agent_ref: agentRef, [ROLLOUT_ID]: rolloutId } };
}

// Which environment a rollout is for: an explicit name, or the row's NeMo Gym agent_ref.
import type { EnvironmentRpc } from "../../contracts/rpc.js";
import { type DatasetRow, EdgegymError } from "../../protocol/index.js";
import { environmentFromAgentName } from "../../protocol/agents.js";
import type { AgentPorts } from "./ports.js";

export { environmentFromAgentName };

export function resolveEnvironment(ports: AgentPorts, row: DatasetRow, explicit: string | undefined): { name: string; environment: EnvironmentRpc } {
  const known = ports.environments;
  const name = explicit ?? (row.agent_ref?.name ? environmentFromAgentName(row.agent_ref.name, known) : undefined);
  if (!name) {
    const hint = row.agent_ref?.name ? `agent_ref.name "${row.agent_ref.name}" names no environment` : "the row has no agent_ref";
    throw new EdgegymError(400, "unknown_environment", `${hint}; pass ?environment=<name> (known: ${known.join(", ")})`);
  }
  const environment = ports.environment(name);
  if (!environment) throw new EdgegymError(404, "unknown_environment", `no environment "${name}" (known: ${known.join(", ")})`);
  return { name, environment };
}

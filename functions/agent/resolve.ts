// Which environment a /run request is for: explicit name, or the row's NeMo Gym agent_ref.
import { EdgegymError, type DatasetRow } from "../../protocol/index.js";
import { environmentFetcher, environmentNames, type AgentEnv } from "../bindings.js";

export const ENVIRONMENT_HEADER = "x-edgegym-environment";

/** NeMo Gym names agents `<environment>_simple_agent` (or `_agent`); the environment is the rest. */
export function environmentFromAgentName(agentName: string, known: string[]): string | undefined {
  if (known.includes(agentName)) return agentName;
  const stripped = agentName.replace(/_(simple_)?agent$/, "");
  return known.includes(stripped) ? stripped : undefined;
}

export function resolveEnvironment(env: AgentEnv, row: DatasetRow, explicit: string | undefined): { name: string; fetcher: Fetcher } {
  const known = environmentNames(env.ENVIRONMENTS);
  const name = explicit ?? (row.agent_ref?.name ? environmentFromAgentName(row.agent_ref.name, known) : undefined);
  if (!name) {
    const hint = row.agent_ref?.name ? `agent_ref.name "${row.agent_ref.name}" names no environment` : "the row has no agent_ref";
    throw new EdgegymError(400, "unknown_environment", `${hint}; pass ?environment=<name> (known: ${known.join(", ")})`);
  }
  const fetcher = environmentFetcher(env, name);
  if (!fetcher) throw new EdgegymError(404, "unknown_environment", `no environment "${name}" (known: ${known.join(", ")})`);
  return { name, fetcher };
}

// Which environment a /run request is for: explicit name, or the row's NeMo Gym agent_ref.
import { EdgegymError, type DatasetRow } from "../../protocol/index.js";
import { environmentFetcher, environmentNames, type AgentEnv } from "../bindings.js";

export const ENVIRONMENT_HEADER = "x-edgegym-environment";

/**
 * NeMo Gym names agents `<environment>_simple_agent`, `<environment>_gymnasium_agent` or `<environment>_agent`
 * (`example_multi_turn_gymnasium_agent` is the last kind); the environment is the rest.
 */
export function environmentFromAgentName(agentName: string, known: string[]): string | undefined {
  if (known.includes(agentName)) return agentName;
  for (const suffix of [/_simple_agent$/, /_gymnasium_agent$/, /_agent$/]) {
    const stripped = agentName.replace(suffix, "");
    if (stripped !== agentName && known.includes(stripped)) return stripped;
  }
  return undefined;
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

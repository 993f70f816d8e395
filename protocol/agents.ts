// NeMo Gym's agent names: `<environment>_simple_agent`, `<environment>_gymnasium_agent` or `<environment>_agent`.

/** The environment an agent_ref names, among the known ones (`example_multi_turn_gymnasium_agent` is the last kind). */
export function environmentFromAgentName(agentName: string, known: readonly string[]): string | undefined {
  if (known.includes(agentName)) return agentName;
  for (const suffix of [/_simple_agent$/, /_gymnasium_agent$/, /_agent$/]) {
    const stripped = agentName.replace(suffix, "");
    if (stripped !== agentName && known.includes(stripped)) return stripped;
  }
  return undefined;
}

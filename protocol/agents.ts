// NeMo Gym's agent names: `<environment>_simple_agent`, `<environment>_gymnasium_agent`, `<environment>_agent`, and
// the names NeMo Gym's own configs give some environments' agents (AGENT_NAMES), which its data rows carry.

/**
 * Agent names NeMo Gym's configs and data give an environment beyond the `<environment>_<kind>_agent` patterns, as
 * its bundled rows (environments/<name>/data) carry them. tests/integrations/agent-names.test.ts checks every
 * agent_ref.name in the bundled data resolves and is discovered.
 */
export const AGENT_NAMES: Readonly<Record<string, readonly string[]>> = {
  conversational_tool_use_simulation: ["conversational_tool_use_agent"],
  equivalence_rule: ["lc_equivalence_rule_simple_agent"],
  evalplus: ["human_eval_evalplus_simple_agent"],
  example_multi_turn_gymnasium: ["example_multi_turn_gymnasium_agent"],
  format_verification: ["freeform_formatting_simple_agent"],
  genrm_compare: ["genrm_simple_agent"],
  graphwalks: ["graphwalks_n3_1m_benchmark_simple_agent"],
  jailbreak_detection: ["jailbreak_hard_refusal_no_redirection", "jailbreak_refusal_with_explanation"],
  ruler: ["ruler_benchmark_simple_agent"],
  structured_outputs: ["structured_outputs_v4_simple_agent"],
};

/** The names discovery serves for an environment: edgegym's own `<env>_simple_agent` or `<env>_gymnasium_agent` first, then NeMo Gym's. */
export function agentNamesOf(environment: string, kind: "simple" | "gymnasium"): string[] {
  const own = `${environment}_${kind}_agent`;
  return [own, ...(AGENT_NAMES[environment] ?? []).filter((name) => name !== own)];
}

/** The environment an agent_ref names, among the known ones. */
export function environmentFromAgentName(agentName: string, known: readonly string[]): string | undefined {
  if (known.includes(agentName)) return agentName;
  for (const [environment, names] of Object.entries(AGENT_NAMES)) {
    if (names.includes(agentName) && known.includes(environment)) return environment;
  }
  for (const suffix of [/_simple_agent$/, /_gymnasium_agent$/, /_agent$/]) {
    const stripped = agentName.replace(suffix, "");
    if (stripped !== agentName && known.includes(stripped)) return stripped;
  }
  return undefined;
}

/**
 * The routes of an environment with a simulated user (NeMo Gym's conversational_tool_use_simulation): its agent runs the
 * conversation loop over them, and a row brings its own tools (the environment simulates them), not these.
 */
export const CONVERSATION_ROUTES = ["next_user_message", "record_agent_outputs", "execute_agent_tool_call", "record_agent_step_limit"] as const;

/** Whether tools by these names are an environment's conversation routes. */
export function servesConversation(toolNames: readonly string[]): boolean {
  return CONVERSATION_ROUTES.every((route) => toolNames.includes(route));
}

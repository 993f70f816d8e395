// A job's rows as the gateway (Cloudflare) and the CLI (AWS) accept them: each line checked against NeMo Gym's dataset row,
// its environment resolved, and the row the agent will run written once, with its agent_ref and task index.
import { type AgentRef, DatasetRow, type ErrorIssue, environmentFromAgentName, issuesOf, TASK_INDEX } from "../protocol/index.js";

export interface RowOptions {
  /** The environment of every row; without it each row's agent_ref names its own. */
  environment?: string;
  /** Shallow-merged into each row's responses_create_params. */
  responses_create_params?: Record<string, unknown>;
  /** Known environments: a row must name one (through agent_ref), unless the job names its environment. */
  environments: readonly string[];
}

/**
 * One line to the row the agent will run (agent_ref and task index set), or the problems that keep it out. The row's own
 * `_ng_task_index` is kept when it has one (NeMo Gym's collector honours it: a stable id across shards); else `position`.
 */
export function acceptRow(text: string, position: number, options: RowOptions): { line: string; task: number } | { issues: Omit<ErrorIssue, "line">[] } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { issues: [{ path: [], message: `not valid JSON (${error instanceof Error ? error.message : String(error)})` }] };
  }
  if (value && typeof value === "object" && options.responses_create_params) {
    const row = value as { responses_create_params?: unknown };
    if (row.responses_create_params && typeof row.responses_create_params === "object") {
      row.responses_create_params = { ...row.responses_create_params, ...options.responses_create_params };
    }
  }
  const parsed = DatasetRow.safeParse(value);
  if (!parsed.success) return { issues: issuesOf(parsed.error) };
  const row = parsed.data;
  const own = row[TASK_INDEX];
  if (own !== undefined && !(typeof own === "number" && Number.isInteger(own) && own >= 0)) {
    return { issues: [{ path: [TASK_INDEX], message: "must be a non-negative integer" }] };
  }
  const task = own ?? position;
  const known = options.environments;
  const environment = options.environment ?? (row.agent_ref ? environmentFromAgentName(row.agent_ref.name, known) : undefined);
  if (!environment) {
    const message = row.agent_ref
      ? `"${row.agent_ref.name}" names no environment (known: ${known.join(", ")})`
      : "no agent_ref, and the job names no environment";
    return { issues: [{ path: ["agent_ref", "name"], message }] };
  }
  // The row's own agent_ref stays when it names this environment (e.g. NeMo Gym's `<env>_gymnasium_agent`).
  const ownRef = row.agent_ref && environmentFromAgentName(row.agent_ref.name, known) === environment ? row.agent_ref : undefined;
  const agentRef: AgentRef = ownRef ?? { type: "responses_api_agents", name: `${environment}_simple_agent` };
  return { line: JSON.stringify({ ...row, agent_ref: agentRef, [TASK_INDEX]: task }), task };
}

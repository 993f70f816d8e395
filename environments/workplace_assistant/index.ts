// Port of NeMo Gym's workplace_assistant: 27 tools over five business databases kept per session, verified by state match.
import { EdgegymError } from "../../protocol/index.js";
import { defineEnvironment, functionCalls, z } from "../sdk/index.js";
import { originalSeed, originalTables } from "./data.js";
import { isSeeded, SqliteTables, seedTables } from "./sqlite.js";
import type { ToolSpec } from "./tool.js";
import { callTool, TOOLS } from "./toolkit.js";
import { stateMatchReward, WorkplaceTask } from "./verify.js";

/**
 * The schema the model is shown is NeMo Gym's; the values are not checked against it, because NeMo Gym's tools take
 * whatever arrives (extra keywords, wrong types) and answer it in their own words, which the tools here reproduce.
 */
function parametersOf(spec: ToolSpec) {
  const shape = Object.fromEntries(
    Object.entries(spec.parameters).map(([name, { type, description }]) => [name, z.unknown().optional().meta({ type, description })]),
  );
  return z
    .object(shape)
    .loose()
    .meta({ required: [...spec.required], additionalProperties: false });
}

/** The session's tables, or NeMo Gym's answer to a tool call that comes before /seed_session. */
function sessionTables(sql: SqlStorage | undefined): SqliteTables {
  if (!sql || !isSeeded(sql)) throw new EdgegymError(400, "session_not_initialized", "Session not initialized. Please call seed_session first.");
  return new SqliteTables(sql);
}

const tools = Object.fromEntries(
  Object.entries(TOOLS).map(([name, spec]) => [
    name,
    {
      description: spec.description,
      parameters: parametersOf(spec),
      execute: (args: Record<string, unknown>, { sql }: { sql?: SqlStorage }) => callTool(sessionTables(sql), name, args),
    },
  ]),
);

export default defineEnvironment({
  name: "workplace_assistant",
  description:
    "Workplace tasks over email, calendar, analytics, project management and CRM databases (a copy per session, in its Durable Object's SQLite): the model's function calls and the expected ones are replayed on fresh tables and the resulting states must match.",
  task: WorkplaceTask,
  // Declared so every call of a session runs in its Durable Object, next to its tables.
  state: z.object({}),
  tools,
  seedSession: (_row, { sql }) => {
    if (!sql) throw new Error("workplace_assistant keeps its tables in the session's SQLite, which this context lacks");
    // Every seed starts the session over from NeMo Gym's original tables.
    seedTables(sql, originalSeed());
    return {};
  },
  verify: (request) => {
    const predicted = functionCalls(request.response).map((call) => ({ name: call.name, arguments: call.arguments }));
    return { reward: stateMatchReward(predicted, request.ground_truth, originalTables()).reward };
  },
  // NeMo Gym's workplace_assistant_simple_agent: max_steps 6.
  maxSteps: 6,
});

// agent: POST /run takes a dataset row and returns the scored rollout.
import { Hono } from "hono";
import { DatasetRow, EdgegymError, ROLLOUT_ID, parseOr400 } from "../../protocol/index.js";
import type { AgentEnv } from "../bindings.js";
import { notFound, onError, readJson } from "../shared/http.js";
import { ENVIRONMENT_HEADER, resolveEnvironment } from "./resolve.js";
import { runRollout, type RolloutLimits } from "./rollout.js";

const DEFAULTS = { maxSteps: 32, rolloutTimeoutMs: 900_000, modelTimeoutMs: 300_000, toolTimeoutMs: 60_000 };

function positiveInt(value: string | undefined, fallback: number, what: string): number {
  if (value === undefined || value === "") return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new EdgegymError(400, "invalid_request", `${what} must be a positive integer, got "${value}"`);
  return n;
}

export const app = new Hono<{ Bindings: AgentEnv }>();
app.onError(onError);
app.notFound(notFound);

app.get("/health", (c) => c.json({ status: "ok" }));

app.post("/run", async (c) => {
  const row = parseOr400(DatasetRow, await readJson(c), "dataset row");
  const { name, fetcher } = resolveEnvironment(c.env, row, c.req.query("environment") ?? c.req.header(ENVIRONMENT_HEADER));
  const rolloutTimeoutMs = positiveInt(c.env.ROLLOUT_TIMEOUT_MS, DEFAULTS.rolloutTimeoutMs, "ROLLOUT_TIMEOUT_MS");
  const limits: RolloutLimits = {
    maxSteps: positiveInt(c.req.query("max_steps") ?? c.env.MAX_STEPS, DEFAULTS.maxSteps, "max_steps"),
    deadline: AbortSignal.any([c.req.raw.signal, AbortSignal.timeout(rolloutTimeoutMs)]),
    modelTimeoutMs: positiveInt(c.env.MODEL_TIMEOUT_MS, DEFAULTS.modelTimeoutMs, "MODEL_TIMEOUT_MS"),
    toolTimeoutMs: positiveInt(c.env.TOOL_TIMEOUT_MS, DEFAULTS.toolTimeoutMs, "TOOL_TIMEOUT_MS"),
  };
  const agentRef = row.agent_ref ?? { type: "responses_api_agents", name: `${name}_simple_agent` };
  const result = await runRollout({ ...row, agent_ref: agentRef }, { model: c.env.MODEL_PROXY, resources: fetcher }, limits);
  const rolloutId = typeof row[ROLLOUT_ID] === "string" ? row[ROLLOUT_ID] : crypto.randomUUID();
  return c.json({ ...result, agent_ref: agentRef, [ROLLOUT_ID]: rolloutId });
});

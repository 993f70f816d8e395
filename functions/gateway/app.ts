// gateway: one URL in front of the model proxy, the agent and every environment; zod checks all that comes in here.
import { Hono } from "hono";
import { z } from "zod";
import type { GatewayEnv } from "../../contracts/env.generated.js";
import { environmentService } from "../../contracts/environments.js";
import { ENVIRONMENT_HEADER } from "../../contracts/names.js";
import { type EnvironmentService, within } from "../../contracts/rpc.js";
import { TIMEOUTS } from "../../contracts/timeouts.js";
import { notFound, onError, raise, readJson } from "../../http/errors.js";
import { workerLogger } from "../../http/log.js";
import { allowOnly, discardBody } from "../../http/methods.js";
import { requestLog } from "../../http/request-log.js";
import { DatasetRow, EdgegymError, parseOr400 } from "../../protocol/index.js";
import { requireToken } from "./auth.js";
import { createJob } from "./jobs-create.js";
import { cancelJob, jobResults, jobStatus, listJobs, resumeJob } from "./jobs-read.js";
import { gatewayPorts } from "./ports.js";

export const app = new Hono<{ Bindings: GatewayEnv }>();
app.onError(onError);
app.notFound(notFound);
app.use(requestLog((c) => workerLogger("gateway", gatewayPorts(c.env).config.LOG_LEVEL)));
// A request body left unread (an early 401/404, or a Worker behind us that answered without reading it) makes
// workerd drop the client's next request on that keep-alive connection: always finish reading it.
app.use(async (c, next) => {
  await next();
  await discardBody(c.req.raw);
});
app.use(requireToken);

app.get("/health", (c) => c.json({ status: "ok" }));

// The model proxy's own HTTP surface (OpenAI's routes, streaming included) answers these as they are.
app.post("/v1/responses", (c) => c.env.MODEL_PROXY.fetch(c.req.raw));
app.post("/v1/chat/completions", (c) => c.env.MODEL_PROXY.fetch(c.req.raw));
app.get("/v1/models", (c) => c.env.MODEL_PROXY.fetch(c.req.raw));

const RunQuery = z.strictObject({
  environment: z.string().min(1).optional(),
  max_steps: z.coerce.number().int().positive().optional(),
});

/** One rollout: the row checked here, at the edge, then run by the agent over RPC. */
app.post("/run", async (c) => {
  const query = parseOr400(RunQuery, c.req.query(), "run query");
  const row = parseOr400(DatasetRow, await readJson(c), "dataset row");
  const environment = query.environment ?? c.req.header(ENVIRONMENT_HEADER);
  // The agent bounds the rollout by its own deadline; this bound only outlives it, so /run never waits unbounded.
  const call = c.env.AGENT.run(row, {
    ...(environment ? { environment } : {}),
    ...(query.max_steps ? { maxSteps: query.max_steps } : {}),
    requestId: c.get("requestId"),
  });
  const result = await within(call, AbortSignal.timeout(gatewayPorts(c.env).config.RUN_TIMEOUT_MS), "the agent");
  return result.ok ? c.json(result.value) : raise(result.error);
});

app.post("/v1/jobs", createJob);
app.get("/v1/jobs", listJobs);
app.get("/v1/jobs/:id", jobStatus);
app.get("/v1/jobs/:id/rollouts", jobResults("rollout"));
app.get("/v1/jobs/:id/failures", jobResults("failure"));
app.delete("/v1/jobs/:id", cancelJob);
app.post("/v1/jobs/:id/resume", resumeJob);

function environmentOr404(env: GatewayEnv, name: string): EnvironmentService {
  const known = gatewayPorts(env).config.ENVIRONMENTS;
  const service = environmentService(env, known, name);
  if (!service) throw new EdgegymError(404, "unknown_environment", `no environment "${name}" (known: ${known.join(", ")})`);
  return service;
}

app.get("/v1/environments", async (c) => {
  const names = gatewayPorts(c.env).config.ENVIRONMENTS;
  const data = await Promise.all(
    names.map((name) => within(environmentOr404(c.env, name).describe(), AbortSignal.timeout(TIMEOUTS.describeMs), `${name}'s describe()`)),
  );
  return c.json({ object: "list", data });
});

/** `/v1/environments/<name>/<path>` reaches `<path>` on that environment's resources server, cookies and all (NeMo Gym's HTTP). */
app.all("/v1/environments/:name/*", (c) => {
  const name = c.req.param("name");
  const url = new URL(c.req.url);
  const prefix = `/v1/environments/${name}`;
  const target = new URL(url.pathname.slice(prefix.length) + url.search, "http://internal");
  return environmentOr404(c.env, name).fetch(new Request(target, c.req.raw));
});

// A known path with a method it does not take: 405 with the methods it does (after every route above).
allowOnly(app, {
  "/health": ["GET"],
  "/v1/responses": ["POST"],
  "/v1/chat/completions": ["POST"],
  "/v1/models": ["GET"],
  "/run": ["POST"],
  "/v1/jobs": ["GET", "POST"],
  "/v1/jobs/:id": ["GET", "DELETE"],
  "/v1/jobs/:id/rollouts": ["GET"],
  "/v1/jobs/:id/failures": ["GET"],
  "/v1/jobs/:id/resume": ["POST"],
  "/v1/environments": ["GET"],
});

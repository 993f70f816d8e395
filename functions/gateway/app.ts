// gateway: one URL in front of the model proxy, the agent and every environment; zod checks all that comes in here.
import type { GatewayEnv } from "../../contracts/env.generated.js";
import { environmentService } from "../../contracts/environments.js";
import { type EnvironmentService, within } from "../../contracts/rpc.js";
import { TIMEOUTS } from "../../contracts/timeouts.js";
import { errorHandler, notFoundHandler } from "../../http/errors.js";
import { allowOnly, discardBody } from "../../http/methods.js";
import { EdgegymError } from "../../protocol/index.js";
import { dashboard } from "./dashboard/routes.js";
import { files } from "./files.js";
import { type GatewayContext, gateway, requestIdOf } from "./caller.js";
import { forwarded, fromBehind } from "./forward.js";
import { guards } from "./guards.js";
import { createJob } from "./jobs-create.js";
import { cancelJob, jobResults, jobStatus, listJobs, resumeJob } from "./jobs-read.js";
import { nemoGym } from "./nemo-gym.js";
import { openenv } from "./openenv.js";
import { basicAsBearer } from "./openenv/basic.js";
import { jobViews } from "./jobs-views.js";
import { jobGroups } from "./jobs-groups.js";
import { gatewayPorts } from "./ports.js";
import { run } from "./run.js";
import { runBatch } from "./run-batch.js";
import { requestId } from "./request-id.js";

export const app = gateway.createApp();
// Every error envelope the gateway makes carries the request id, written in as it is made.
app.onError(errorHandler<GatewayContext>(requestIdOf));
app.notFound(notFoundHandler<GatewayContext>(requestIdOf));
// The request id first: every answer carries it, every error body names it, and each request gets its log line.
app.use(requestId);
// A request body left unread (an early 401/404, or a Worker behind us that answered without reading it) makes
// workerd drop the client's next request on that keep-alive connection: always finish reading it.
app.use(async (c, next) => {
  await next();
  await discardBody(c.req.raw);
});
// OpenEnv's client can only send its token as a URL's user info (Basic auth): made a bearer token before the checks.
app.use("/openenv/*", basicAsBearer);
app.use(...guards);

app.get("/health", (c) => c.json({ status: "ok" }));
app.route("/", dashboard);

// The model proxy's own HTTP surface (OpenAI's routes, streaming included) answers these as they are.
app.post("/v1/responses", async (c) => fromBehind(c, await c.env.MODEL_PROXY.fetch(forwarded(c))));
app.post("/v1/chat/completions", async (c) => fromBehind(c, await c.env.MODEL_PROXY.fetch(forwarded(c))));
app.get("/v1/models", async (c) => fromBehind(c, await c.env.MODEL_PROXY.fetch(forwarded(c))));

app.post("/run", run);
app.post("/run/batch", runBatch);
// NeMo Gym's head-server routes (discovery, /aggregate_metrics by agent_ref): its collector finds edgegym by config alone.
app.route("/", nemoGym);
// OpenEnv's environment server per environment (/openenv/<env>/reset, /step, /state, /ws…): its trainers use edgegym as it is.
app.route("/", openenv);

app.post("/v1/jobs", createJob);
app.get("/v1/jobs", listJobs);
app.get("/v1/jobs/:id", jobStatus);
app.get("/v1/jobs/:id/rollouts", jobResults("rollout"));
app.get("/v1/jobs/:id/failures", jobResults("failure"));
app.delete("/v1/jobs/:id", cancelJob);
app.post("/v1/jobs/:id/resume", resumeJob);
app.route("/v1/jobs", jobViews);
app.route("/v1/jobs", jobGroups);
app.route("/v1/files", files);

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
app.all("/v1/environments/:name/*", async (c) => {
  const name = c.req.param("name");
  const url = new URL(c.req.url);
  const prefix = `/v1/environments/${name}`;
  const target = new URL(url.pathname.slice(prefix.length) + url.search, "http://internal");
  return fromBehind(c, await environmentOr404(c.env, name).fetch(new Request(target, forwarded(c))));
});

// A known path with a method it does not take: 405 with the methods it does (after every route above).
allowOnly(app, {
  "/health": ["GET"],
  "/v1/responses": ["POST"],
  "/v1/chat/completions": ["POST"],
  "/v1/models": ["GET"],
  "/run": ["POST"],
  "/run/batch": ["POST"],
  "/v1/jobs": ["GET", "POST"],
  "/v1/jobs/:id": ["GET", "DELETE"],
  "/v1/jobs/:id/rollouts": ["GET"],
  "/v1/jobs/:id/failures": ["GET"],
  "/v1/jobs/:id/resume": ["POST"],
  "/v1/jobs/:id/summary": ["GET"],
  "/v1/jobs/:id/records": ["GET"],
  "/v1/jobs/:id/groups": ["GET"],
  "/v1/files": ["GET"],
  "/v1/files/:name": ["PUT", "DELETE"],
  "/v1/environments": ["GET"],
  "/global_config_dict_yaml": ["GET"],
  "/server_instances": ["GET"],
  "/aggregate_metrics": ["POST"],
});

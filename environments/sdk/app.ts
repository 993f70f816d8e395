// The Hono app of a resources server, for outside callers: NeMo Gym's protocol (simple: /seed_session, /<tool>, /verify;
// gymnasium: /reset, /step, /close), /aggregate_metrics and /tools.
import { Hono } from "hono";
import type { EnvironmentBindings } from "./bindings.js";
import { notFound, onError, readJson } from "../../http/errors.js";
import { allowOnly, discardBody } from "../../http/methods.js";
import { requestLog } from "../../http/request-log.js";
import { AggregateMetricsRequest, parseOr400 } from "../../protocol/index.js";
import { type AppContext, answerOperation } from "./answer.js";
import { environmentMetrics, toolsAnswer } from "./describe.js";
import { useResetStep } from "./gymnasium.js";
import { environmentLog } from "./log.js";
import { answerMcp } from "./mcp/endpoint.js";
import { withMcpMetadata } from "./mcp/metadata.js";
import type { Environment } from "./types.js";

/**
 * Reads a request body the answer does not need. Behind the gateway (a service binding passing the body through),
 * an answer that leaves it unread can make workerd drop the client's keep-alive connection under its next request.
 */
async function drain(c: AppContext): Promise<void> {
  // A body that fails to read (the caller went away) has nothing left to drain.
  await discardBody(c.req.raw);
}

function routesFor(environment: Environment) {
  const routes = new Hono<{ Bindings: EnvironmentBindings }>();
  routes.get("/health", (c) => c.json({ status: "ok", environment: environment.name }));
  routes.get("/tools", async (c) => c.json(await toolsAnswer(environment, c.env)));
  routes.post("/aggregate_metrics", async (c) => {
    const request = parseOr400(AggregateMetricsRequest, await readJson(c), "aggregate_metrics request");
    return c.json(environmentMetrics(environment, request.verify_responses));
  });
  if (environment.kind === "gymnasium") {
    for (const route of ["seed_session", "verify"]) {
      routes.post(`/${route}`, async (c) => {
        await drain(c);
        throw useResetStep(environment.name, route);
      });
    }
    routes.post("/reset", (c) => answerOperation(c, environment, { kind: "reset" }));
    routes.post("/step", (c) => answerOperation(c, environment, { kind: "step" }));
    routes.post("/close", (c) => answerOperation(c, environment, { kind: "close" }));
    const post = ["POST"];
    allowOnly(routes, {
      "/health": ["GET"],
      "/tools": ["GET"],
      "/aggregate_metrics": post,
      "/reset": post,
      "/step": post,
      "/close": post,
      "/seed_session": post,
      "/verify": post,
    });
    return routes;
  }
  // MCP (stateless Streamable HTTP): POST only; the SDK's client tolerates 405 for the GET stream and DELETE.
  routes.post("/mcp", (c) => answerMcp(c, environment));
  // /seed_session's answer carries the MCP metadata (NeMo Gym's `mcp` key) for the session it opened.
  routes.post("/seed_session", (c) =>
    answerOperation(c, environment, { kind: "seed_session" }, (outcome, sessionId, body) => withMcpMetadata(environment, c.env, sessionId, body, outcome)),
  );
  routes.post("/:route", (c) => {
    const route = c.req.param("route");
    return answerOperation(c, environment, route === "verify" ? { kind: route } : { kind: "tool", name: route });
  });
  allowOnly(routes, { "/health": ["GET"], "/tools": ["GET"], "/mcp": ["POST"], "/seed_session": ["POST"], "/:route": ["POST"] });
  return routes;
}

export function environmentApp(environment: Environment) {
  const app = new Hono<{ Bindings: EnvironmentBindings }>();
  app.onError(onError);
  app.use(requestLog((c) => environmentLog(c.env, environment.name)));
  app.notFound(async (c) => {
    await drain(c);
    return notFound(c);
  });
  const routes = routesFor(environment);
  app.route("/", routes);
  // NeMo Gym prefixes a rollout's calls with `/ng-rollout/<id>` for tracing; the routes behind it are the same.
  if (environment.kind === "gymnasium") app.route("/ng-rollout/:rollout", routes);
  return app;
}

// A remote environment's Hono app, for outside callers through the gateway: NeMo Gym's routes (/seed_session, /<tool>,
// /verify, /aggregate_metrics, /reverify_mode) plus /tools and /health, as a native environment's app answers them.
import { Hono } from "hono";
import { setCookie } from "hono/cookie";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { EnvironmentEnv } from "../../../contracts/env.generated.js";
import type { RemoteEnvironmentConfig } from "../../../contracts/remote.js";
import type { Outcome } from "../../../contracts/rpc.js";
import { notFound, onError, readJson } from "../../../http/errors.js";
import { allowOnly } from "../../../http/methods.js";
import { AggregateMetricsRequest, parseOr400 } from "../../../protocol/index.js";
import { httpOwner, overHttps, SESSION_COOKIE, SESSION_HEADER, sessionIdOf } from "../session.js";
import { describeRemoteWithSources } from "./mcp.js";
import { remoteMetrics } from "./operations.js";
import { continueRemote, openRemote } from "./run.js";
import { clientFor } from "./session-object.js";

export function remoteApp(config: RemoteEnvironmentConfig) {
  const app = new Hono<{ Bindings: EnvironmentEnv }>();
  app.onError(onError);
  app.notFound(notFound);
  app.get("/health", (c) => c.json({ status: "ok", environment: config.name }));
  app.get("/tools", async (c) => {
    const { name, ...rest } = await describeRemoteWithSources(config, c.env);
    return c.json({ environment: name, ...rest });
  });
  app.get("/reverify_mode", async (c) => c.json(await clientFor(config, c.env).reverifyMode(c.req.raw.signal)));
  app.post("/aggregate_metrics", async (c) => {
    const request = parseOr400(AggregateMetricsRequest, await readJson(c), "aggregate_metrics request");
    const lines = request.verify_responses.map((r) => `${JSON.stringify(r)}\n`).join("");
    const result = await remoteMetrics(clientFor(config, c.env), new Response(lines).body!);
    return result.ok ? c.json(result.value) : c.json({ error: result.error }, result.error.status as ContentfulStatusCode);
  });
  app.post("/:route", async (c) => {
    const route = c.req.param("route");
    const body = await readJson(c);
    const owner = httpOwner(c);
    const carried = sessionIdOf(c);
    let outcome: Outcome;
    if (route === "seed_session" || carried === undefined) {
      // A call without a session (a /verify on its own, as NeMo Gym allows) is a new session, as a native app does.
      const opened = await openRemote(config, c.env, route === "seed_session" ? body : {}, owner, false);
      c.header(SESSION_HEADER, opened.sessionId);
      setCookie(c, SESSION_COOKIE, opened.sessionId, { path: "/", httpOnly: true, sameSite: "Lax", secure: overHttps(c) });
      outcome =
        route === "seed_session" || opened.status !== 200
          ? opened
          : await continueRemote(config, c.env, operationOf(route), body, opened.sessionId, owner, false);
    } else {
      outcome = await continueRemote(config, c.env, operationOf(route), body, carried, owner, false);
      if (outcome.status < 400) c.header(SESSION_HEADER, carried);
    }
    return c.json(outcome.body, outcome.status as ContentfulStatusCode);
  });
  allowOnly(app, { "/health": ["GET"], "/tools": ["GET"], "/reverify_mode": ["GET"], "/:route": ["POST"] });
  return app;
}

function operationOf(route: string) {
  return route === "verify" ? ({ kind: "verify" } as const) : ({ kind: "tool", name: route } as const);
}

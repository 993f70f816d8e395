// The Hono app of a resources server: NeMo Gym's protocol (/seed_session, /<tool>, /verify, /aggregate_metrics) plus /tools.
import { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { AggregateMetricsRequest, parseOr400 } from "../../protocol/index.js";
import type { EnvironmentEnv } from "../../functions/bindings.js";
import { notFound, onError, readJson } from "../../functions/shared/http.js";
import type { Environment } from "./define.js";
import type { EnvironmentSessionRpc } from "./durable-types.js";
import { isGymnasium } from "./gymnasium.js";
import { gymnasiumApp } from "./gymnasium-app.js";
import { aggregateMetrics } from "./metrics.js";
import { judgeThrough } from "./judge.js";
import { noState, perform, type Operation, type Outcome } from "./perform.js";
import { SESSION_HEADER, newSessionId, sessionCookie, sessionIdOf } from "./session.js";

const TOOL_TIMEOUT_MS = 60_000;

function operationFor(route: string): Operation {
  if (route === "seed_session" || route === "verify") return { kind: route };
  return { kind: "tool", name: route };
}

export function environmentApp(environment: Environment) {
  // A gymnasium environment speaks reset/step instead (NeMo Gym's GymnasiumServer).
  if (isGymnasium(environment)) return gymnasiumApp(environment);
  const app = new Hono<{ Bindings: EnvironmentEnv }>();
  app.onError(onError);
  app.notFound(notFound);

  const tools = [...environment.tools.values()].map((tool) => tool.openai);
  app.get("/health", (c) => c.json({ status: "ok", environment: environment.name }));
  app.get("/tools", (c) =>
    c.json({ environment: environment.name, description: environment.description, stateful: environment.stateful, tools }),
  );

  app.post("/aggregate_metrics", async (c) => {
    const request = parseOr400(AggregateMetricsRequest, await readJson(c), "aggregate_metrics request");
    return c.json(aggregateMetrics(request.verify_responses, { computeMetrics: environment.computeMetrics, keyMetrics: environment.keyMetrics }));
  });

  app.post("/:route", async (c) => {
    const operation = operationFor(c.req.param("route"));
    const body = await readJson(c);
    const carried = sessionIdOf(c.req.raw.headers);
    const sessionId = carried ?? newSessionId();

    let outcome: Outcome;
    if (environment.stateful) {
      if (!c.env.SESSIONS) throw new Error(`${environment.name} is stateful but its Worker has no SESSIONS binding`);
      const stub = c.env.SESSIONS.get(c.env.SESSIONS.idFromName(sessionId)) as unknown as EnvironmentSessionRpc;
      outcome = await stub.perform(operation, body, sessionId);
    } else {
      const signal = AbortSignal.any([c.req.raw.signal, AbortSignal.timeout(TOOL_TIMEOUT_MS)]);
      outcome = await perform(environment, operation, body, { sessionId, state: noState, signal, judge: judgeThrough(c.env.JUDGE, signal) });
    }

    c.header(SESSION_HEADER, sessionId);
    if (!carried) c.header("set-cookie", sessionCookie(sessionId));
    return c.json(outcome.body, outcome.status as ContentfulStatusCode);
  });
  return app;
}

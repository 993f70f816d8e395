// The Hono app of a resources server: NeMo Gym's protocol (/seed_session, /<tool>, /verify, /aggregate_metrics) plus /tools.
import { answerOperation } from "./answer.js";
import { Hono } from "hono";
import { AggregateMetricsRequest, parseOr400 } from "../../protocol/index.js";
import type { EnvironmentEnv } from "../../functions/bindings.js";
import { notFound, onError, readJson } from "../../functions/shared/http.js";
import type { Environment } from "./define.js";
import { isGymnasium } from "./gymnasium.js";
import { gymnasiumApp } from "./gymnasium-app.js";
import { aggregateMetrics } from "./metrics.js";
import { perform, type Operation } from "./perform.js";

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
  app.get("/tools", (c) => c.json({ environment: environment.name, description: environment.description, stateful: environment.stateful, tools }));

  app.post("/aggregate_metrics", async (c) => {
    const request = parseOr400(AggregateMetricsRequest, await readJson(c), "aggregate_metrics request");
    return c.json(aggregateMetrics(request.verify_responses, { computeMetrics: environment.computeMetrics, keyMetrics: environment.keyMetrics }));
  });

  app.post("/:route", (c) => {
    const operation = operationFor(c.req.param("route"));
    return answerOperation(c, environment, operation, (body, ctx) => perform(environment, operation, body, ctx));
  });
  return app;
}

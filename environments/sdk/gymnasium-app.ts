// The Hono app of a gymnasium environment: NeMo Gym's GymnasiumServer protocol (/reset, /step, /aggregate_metrics) plus /tools and /close.
import { answerOperation } from "./answer.js";
import { Hono, type Context } from "hono";
import { AggregateMetricsRequest, parseOr400 } from "../../protocol/index.js";
import type { EnvironmentEnv } from "../../functions/bindings.js";
import { notFound, onError, readJson } from "../../functions/shared/http.js";
import { useResetStep, type GymnasiumEnvironment } from "./gymnasium.js";
import { performGymnasium, type GymnasiumOperation } from "./gymnasium-perform.js";
import { aggregateMetrics } from "./metrics.js";

type AppContext = Context<{ Bindings: EnvironmentEnv }>;

/**
 * Reads a request body the answer does not need. Behind the gateway (a service binding passing the body through),
 * an answer that leaves it unread can make workerd drop the client's keep-alive connection under its next request.
 */
async function drain(c: AppContext): Promise<void> {
  if (c.req.raw.body) await c.req.raw.arrayBuffer().catch(() => undefined);
}

export function gymnasiumApp(environment: GymnasiumEnvironment) {
  const routes = new Hono<{ Bindings: EnvironmentEnv }>();

  routes.get("/health", (c) => c.json({ status: "ok", environment: environment.name }));
  routes.get("/tools", (c) =>
    c.json({
      environment: environment.name,
      description: environment.description,
      kind: "gymnasium",
      stateful: environment.stateful,
      ...(environment.maxSteps !== undefined ? { max_steps: environment.maxSteps } : {}),
      tools: environment.gymnasium.tools,
    }),
  );

  routes.post("/aggregate_metrics", async (c) => {
    const request = parseOr400(AggregateMetricsRequest, await readJson(c), "aggregate_metrics request");
    return c.json(aggregateMetrics(request.verify_responses, { computeMetrics: environment.computeMetrics, keyMetrics: environment.keyMetrics }));
  });

  for (const route of ["seed_session", "verify"]) {
    routes.post(`/${route}`, async (c) => {
      await drain(c);
      throw useResetStep(environment.name, route);
    });
  }

  const run = (c: AppContext, operation: GymnasiumOperation) =>
    answerOperation(c, environment, operation, (body, ctx) => performGymnasium(environment, operation, body, ctx));

  routes.post("/reset", (c) => run(c, { kind: "reset" }));
  routes.post("/step", (c) => run(c, { kind: "step" }));
  routes.post("/close", (c) => run(c, { kind: "close" }));

  const app = new Hono<{ Bindings: EnvironmentEnv }>();
  app.onError(onError);
  app.notFound(async (c) => {
    await drain(c);
    return notFound(c);
  });
  app.route("/", routes);
  // NeMo Gym prefixes a rollout's calls with `/ng-rollout/<id>` for tracing; the routes behind it are the same.
  app.route("/ng-rollout/:rollout", routes);
  return app;
}

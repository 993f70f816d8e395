// gateway: one URL in front of the model proxy, the agent and every environment.
import { Hono } from "hono";
import { EdgegymError } from "../../protocol/index.js";
import { environmentFetcher, environmentNames, type GatewayEnv } from "../bindings.js";
import { notFound, onError } from "../shared/http.js";
import { requireToken } from "./auth.js";
import { createJob } from "./jobs-create.js";
import { cancelJob, jobResults, jobStatus, listJobs, resumeJob } from "./jobs-read.js";

export const app = new Hono<{ Bindings: GatewayEnv }>();
app.onError(onError);
app.notFound(notFound);
// A request body left unread (an early 401/404, or a Worker behind us that answered without reading it) makes
// workerd drop the client's next request on that keep-alive connection: always finish reading it.
app.use(async (c, next) => {
  await next();
  if (c.req.raw.body && !c.req.raw.bodyUsed) await c.req.raw.arrayBuffer().catch(() => undefined);
});
app.use(requireToken);

app.get("/health", (c) => c.json({ status: "ok" }));

app.post("/v1/responses", (c) => c.env.MODEL_PROXY.fetch(c.req.raw));
app.post("/v1/chat/completions", (c) => c.env.MODEL_PROXY.fetch(c.req.raw));
app.get("/v1/models", (c) => c.env.MODEL_PROXY.fetch(c.req.raw));
app.post("/run", (c) => c.env.AGENT.fetch(c.req.raw));

app.post("/v1/jobs", createJob);
app.get("/v1/jobs", listJobs);
app.get("/v1/jobs/:id", jobStatus);
app.get("/v1/jobs/:id/rollouts", jobResults("rollout"));
app.get("/v1/jobs/:id/failures", jobResults("failure"));
app.delete("/v1/jobs/:id", cancelJob);
app.post("/v1/jobs/:id/resume", resumeJob);

function environmentOr404(env: GatewayEnv, name: string): Fetcher {
  const fetcher = environmentFetcher(env, name);
  if (!fetcher) {
    throw new EdgegymError(404, "unknown_environment", `no environment "${name}" (known: ${environmentNames(env.ENVIRONMENTS).join(", ")})`);
  }
  return fetcher;
}

app.get("/v1/environments", async (c) => {
  const names = environmentNames(c.env.ENVIRONMENTS);
  const environments = await Promise.all(
    names.map(async (name) => {
      const answer = await environmentOr404(c.env, name).fetch("http://internal/tools");
      return { name, ...((await answer.json()) as Record<string, unknown>) };
    }),
  );
  return c.json({ object: "list", data: environments });
});

/** `/v1/environments/<name>/<path>` reaches `<path>` on that environment's resources server, cookies and all. */
app.all("/v1/environments/:name/*", (c) => {
  const name = c.req.param("name");
  const url = new URL(c.req.url);
  const prefix = `/v1/environments/${name}`;
  const target = new URL(url.pathname.slice(prefix.length) + url.search, "http://internal");
  return environmentOr404(c.env, name).fetch(new Request(target, c.req.raw));
});

// agent Worker entry: the `rollouts` queue consumer, /health, and the RPC entrypoint the gateway's /run calls.
import { Hono } from "hono";
import type { AgentEnv } from "../../contracts/env.generated.js";
import { notFound, onError } from "../../http/errors.js";
import { handleWork } from "./consumer.js";
import { cloudflarePorts } from "./ports.js";

export { AgentEntrypoint } from "./entrypoint.js";
export { RolloutRunner } from "./runner.js";

const app = new Hono<{ Bindings: AgentEnv }>();
app.onError(onError);
app.notFound(notFound);
app.get("/health", (c) => c.json({ status: "ok" }));

export default {
  fetch: app.fetch,
  queue: (batch, env) => handleWork(batch, cloudflarePorts(env)),
} satisfies ExportedHandler<AgentEnv>;

// agent Worker entry: /run over HTTP, and the `rollouts` queue consumer.
import type { AgentEnv } from "../bindings.js";
import { app } from "./app.js";
import { handleWork } from "./consumer.js";

export default {
  fetch: app.fetch,
  queue: (batch, env) => handleWork(batch, env),
} satisfies ExportedHandler<AgentEnv>;

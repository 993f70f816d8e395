// Turns an environment definition into a deployable Worker: a fetch handler and its session Durable Object class.
import type { EnvironmentEnv } from "../../functions/bindings.js";
import { environmentApp } from "./app.js";
import type { Environment } from "./define.js";
import { sessionObjectFor } from "./durable.js";

export function environmentWorker(environment: Environment) {
  const app = environmentApp(environment);
  return {
    handler: { fetch: app.fetch } satisfies ExportedHandler<EnvironmentEnv>,
    Session: sessionObjectFor(environment),
  };
}

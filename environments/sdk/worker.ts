// Turns an environment definition into a deployable Worker: its HTTP handler, RPC entrypoint and session Durable Object class.
import type { EnvironmentEnv } from "../../contracts/env.generated.js";
import { environmentApp } from "./app.js";
import { sessionObjectFor } from "./durable.js";
import { entrypointFor } from "./entrypoint.js";
import type { Environment } from "./types.js";

export function environmentWorker(environment: Environment) {
  const app = environmentApp(environment);
  return {
    handler: { fetch: app.fetch } satisfies ExportedHandler<EnvironmentEnv>,
    Entrypoint: entrypointFor(environment, app),
    Session: sessionObjectFor(environment),
  };
}

// The environment Worker's bindings as its own code sees them: the generated EnvironmentEnv, the session namespace typed by its class.
import type { EnvironmentEnv } from "../../contracts/env.generated.js";
import type { EnvironmentSession } from "./durable.js";

/**
 * contracts/env.generated.ts types SESSIONS by its call interface (SessionRpc): the ground floor may not name a class of
 * the SDK. Here, beside the class, the namespace is typed by it (DurableObjectNamespace<EnvironmentSession>, as
 * Cloudflare's templates do), so `env.SESSIONS.get(id).perform` reads on to EnvironmentSession.perform.
 */
export interface EnvironmentBindings extends EnvironmentEnv {
  SESSIONS: DurableObjectNamespace<EnvironmentSession>;
}

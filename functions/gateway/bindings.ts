// The gateway's bindings as its own code sees them: the generated GatewayEnv, its own Durable Objects typed by their classes.
import type { GatewayEnv } from "../../contracts/env.generated.js";
import type { Admission } from "./admission.js";
import type { TokenRateLimiter } from "./rate-limit.js";

/**
 * contracts/env.generated.ts types these namespaces by their call interfaces: the ground floor may not name a Worker's
 * class. Here, beside the classes this Worker hosts, they are typed by them (as Cloudflare's templates do), so
 * `env.RATE_LIMITS.getByName(name).take` reads on to TokenRateLimiter.take. (JOBS stays typed by JobRpc: its class lives
 * in the writer, a folder no other Worker imports.)
 */
export interface GatewayBindings extends GatewayEnv {
  RATE_LIMITS: DurableObjectNamespace<TokenRateLimiter>;
  ADMISSION: DurableObjectNamespace<Admission>;
}

// gateway Worker entry.
import type { GatewayEnv } from "../../contracts/env.generated.js";
import { app } from "./app.js";

export { Admission } from "./admission.js";
export { TokenRateLimiter } from "./rate-limit.js";

export default { fetch: app.fetch } satisfies ExportedHandler<GatewayEnv>;

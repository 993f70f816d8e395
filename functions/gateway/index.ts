// gateway Worker entry.
import type { GatewayEnv } from "../bindings.js";
import { app } from "./app.js";

export default { fetch: app.fetch } satisfies ExportedHandler<GatewayEnv>;

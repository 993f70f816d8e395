// model-proxy Worker entry.
import type { ModelProxyEnv } from "../bindings.js";
import { app } from "./app.js";

export default { fetch: app.fetch } satisfies ExportedHandler<ModelProxyEnv>;

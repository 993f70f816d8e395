// model-proxy Worker entry: the HTTP app, and the RPC entrypoint the agent and environments call.
import type { ModelProxyEnv } from "../../contracts/env.generated.js";
import { app } from "./app.js";

export { ModelEntrypoint } from "./entrypoint.js";

export default { fetch: app.fetch } satisfies ExportedHandler<ModelProxyEnv>;

// agent Worker entry.
import type { AgentEnv } from "../bindings.js";
import { app } from "./app.js";

export default { fetch: app.fetch } satisfies ExportedHandler<AgentEnv>;

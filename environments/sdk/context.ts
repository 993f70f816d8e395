// Builds the context a tool, seed or verifier gets (ToolContext), once, for the Worker, the session object and in process.
import type { ModelBindings } from "./models.js";
import { modelsThrough } from "./models.js";
import type { SessionState, ToolContext } from "./types.js";

/** What the caller has for one operation: its session, state, bound signal and the model proxies it can reach. */
export interface ContextParts {
  sessionId: string;
  state: SessionState<unknown>;
  /** The operation's deadline, made on first read (most operations never read it). */
  signal: () => AbortSignal;
  models: ModelBindings;
  sql?: SqlStorage;
}

/** The ports (contracts/context.ts): `judge` and `models` over the same bindings; `sandbox` is filled by #28. */
export function toolContext(parts: ContextParts): ToolContext<unknown> {
  const models = modelsThrough(parts.models, parts.signal);
  const context: ToolContext<unknown> = {
    sessionId: parts.sessionId,
    state: parts.state,
    get signal() {
      return parts.signal();
    },
    judge: (params) => models("judge", params),
    models,
  };
  if (parts.sql) context.sql = parts.sql;
  return context;
}

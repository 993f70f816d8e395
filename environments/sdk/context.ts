// Builds the context a tool, seed or verifier gets (ToolContext), once, for the Worker, the session object and in process.
import type { McpSessionRecords } from "../../contracts/mcp.js";
import type { SandboxProvider, SandboxSpec } from "../../contracts/sandbox.js";
import type { ModelBindings } from "./models.js";
import { modelsThrough } from "./models.js";
import { type SandboxRecords, sessionSandbox } from "./sandbox/session-sandbox.js";
import type { SessionState, ToolContext } from "./types.js";

/** What the caller has for one operation: its session, state, bound signal and the model proxies it can reach. */
export interface ContextParts {
  sessionId: string;
  state: SessionState<unknown>;
  /** The operation's deadline, made on first read (most operations never read it). */
  signal: () => AbortSignal;
  models: ModelBindings;
  sql?: SqlStorage;
  /** Where a `per_session` MCP server's session id is kept (a stateful session's storage). */
  mcpSessions?: McpSessionRecords;
  /** The Worker's env (or a process's configuration): `ctx.secret(name)` reads a string binding of it. */
  secrets?: object;
  /** The session's sandbox, for an environment that declares one: its spec, the deployment's provider, where its record lives. */
  sandbox?: { spec: SandboxSpec; provider: () => SandboxProvider; records: SandboxRecords };
}

/** Reads a string binding of a Worker's env (or a process's configuration) by name: a secret or a var. */
export function secretReader(bindings: object): (name: string) => string | undefined {
  return (name) => {
    const value: unknown = Reflect.get(bindings, name);
    return typeof value === "string" ? value : undefined;
  };
}

/** The ports (contracts/context.ts): `judge` and `models` over the same bindings, `sandbox` when the environment declares one. */
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
  if (parts.mcpSessions) context.mcpSessions = parts.mcpSessions;
  if (parts.secrets) context.secret = secretReader(parts.secrets);
  const sandbox = parts.sandbox;
  if (sandbox) {
    // Made on first use: the provider (and its configuration check) only when a tool touches the sandbox.
    let made: ReturnType<typeof sessionSandbox> | undefined;
    const handle = () => (made ??= sessionSandbox({ spec: sandbox.spec, provider: sandbox.provider(), records: sandbox.records, signal: parts.signal }));
    context.sandbox = {
      run: (request) => handle().run(request),
      writeFile: (path, content) => handle().writeFile(path, content),
      readFile: (path, maxBytes) => handle().readFile(path, maxBytes),
      keep: (name, command) => handle().keep(name, command),
      destroy: () => handle().destroy(),
    };
  }
  return context;
}

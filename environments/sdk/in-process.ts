// An environment run in the caller's own process (a Lambda, a Node worker): the same operations as its Worker, with each
// session's state in a Map instead of a Durable Object.
import type { EnvironmentDescription, EnvironmentRpc, ModelRpc, Outcome, SessionOperation } from "../../contracts/rpc.js";
import type { McpSessionRecords } from "../../contracts/mcp.js";
import type { SandboxProvider, SandboxRecord } from "../../contracts/sandbox.js";
import { describeEnvironment, describeWithSources, streamedMetrics } from "./describe.js";
import { performAny } from "./gymnasium-perform.js";
import { heldMcpSessions } from "./mcp/records.js";
import { secretReader, toolContext } from "./context.js";
import { noState } from "./perform.js";
import { OPERATION_TIMEOUT_MS } from "./refusals.js";
import type { SandboxRecords } from "./sandbox/session-sandbox.js";
import type { Environment, SessionState } from "./types.js";

export interface InProcessOptions {
  /** The judge model for LLM-as-judge environments; without it a judge call fails the rollout as `judge_failed`. */
  judge?: ModelRpc;
  /** A session is forgotten this long after its last operation (the Durable Object's SESSION_TTL_SECONDS); default 1 h. */
  sessionTtlMs?: number;
  /** Secrets by name (a Worker's env bindings): an MCP server's credentials (`mcpServers`' headerSecrets). */
  secrets?: Record<string, string>;
  /**
   * The sandbox provider for an environment that declares one (made on first use: `sandboxProvider(process.env)` reads
   * SANDBOX_PROVIDER, SANDBOX_URL, SANDBOX_TOKEN). A session's sandbox is destroyed when the session ends or expires.
   */
  sandbox?: () => SandboxProvider;
}

interface Session {
  value: unknown;
  expires: number;
  /** Operations of one session run one after another, as in its Durable Object. */
  tail: Promise<unknown>;
  /** Its sandbox's record, once a tool or the verifier made one. */
  sandbox?: SandboxRecord;
  /** Its `per_session` MCP servers' session ids, by source. */
  mcp?: Record<string, string>;
}

/** In process nobody else can present a session id: a random one is enough (no HMAC binding as over HTTP and RPC). */
const newSessionId = (): string => crypto.randomUUID();

/** Sessions kept at once before the expired ones are swept (a sweep is a pass over the Map). */
const SWEEP_AT = 1024;

/**
 * An environment's RPC surface in process. A stateful environment keeps `ctx.state` per session in memory, copied in and
 * out as a Durable Object's storage would; `ctx.sql` (SQLite) does not exist here, so an environment whose tools or
 * verifier use it (text_to_sql) fails its rollouts in process and must be reached as a deployed resources server instead.
 * A session ends after verify (simple environments) or close (gymnasium), or after `sessionTtlMs` unused.
 */
export function inProcessEnvironment(environment: Environment, options: InProcessOptions = {}): EnvironmentRpc {
  const description: EnvironmentDescription = describeEnvironment(environment);
  const ttl = options.sessionTtlMs ?? 3_600_000;
  const sessions = new Map<string, Session>();

  let provider: SandboxProvider | undefined;
  const sandboxProvider = (): SandboxProvider => {
    if (!options.sandbox) throw new Error(`${environment.name} declares a sandbox and this process was given no sandbox provider`);
    return (provider ??= options.sandbox());
  };

  /** The session's sandbox record lives on its Map entry, as in its Durable Object's storage. */
  function sandboxRecords(sessionId: string): SandboxRecords {
    return {
      get: async () => sessions.get(sessionId)?.sandbox,
      put: async (record) => {
        const found = sessions.get(sessionId);
        if (found) found.sandbox = record;
      },
      delete: async () => {
        const found = sessions.get(sessionId);
        if (found) delete found.sandbox;
      },
    };
  }

  /**
   * Forgets a session, destroying its sandbox and ending its MCP sessions (best effort: the provider's TTL bounds a
   * sandbox it could not reach, and an MCP server's own expiry a session it could not end).
   */
  function end(sessionId: string): void {
    const session = sessions.get(sessionId);
    sessions.delete(sessionId);
    if (session?.sandbox && provider) void provider.destroy(session.sandbox.handle).catch(() => undefined);
    if (session?.mcp && environment.kind === "simple") {
      const secret = secretReader(options.secrets ?? {});
      const ended = import("./mcp/sources.js").then(({ endMcpSessions }) => endMcpSessions(environment, heldMcpSessions(session), secret));
      void ended.catch(() => undefined);
    }
  }

  function sweep(now: number): void {
    if (sessions.size < SWEEP_AT) return;
    for (const [id, session] of sessions) if (session.expires <= now) end(id);
  }

  function stateOf(sessionId: string): SessionState<unknown> {
    const session = () => {
      let found = sessions.get(sessionId);
      if (!found) sessions.set(sessionId, (found = { value: undefined, expires: Date.now() + ttl, tail: Promise.resolve() }));
      return found;
    };
    return {
      get: async () => structuredClone(sessions.get(sessionId)?.value),
      set: async (value) => {
        session().value = structuredClone(value);
      },
      clear: async () => {
        const found = sessions.get(sessionId);
        if (found) found.value = undefined;
      },
    };
  }

  function run(operation: SessionOperation, body: unknown, sessionId: string, ends = false): Promise<Outcome> {
    const now = Date.now();
    sweep(now);
    const signal = AbortSignal.timeout(OPERATION_TIMEOUT_MS);
    const spec = environment.sandbox;
    const sandbox = spec ? { spec, provider: sandboxProvider, records: sandboxRecords(sessionId) } : undefined;
    const context = (state: SessionState<unknown>, mcp?: McpSessionRecords) =>
      toolContext({ sessionId, state, signal: () => signal, models: { judge: options.judge }, sandbox, secrets: options.secrets, mcpSessions: mcp });
    if (!environment.stateful) return performAny(environment, operation, body, context(noState), true);
    let session = sessions.get(sessionId);
    if (!session) sessions.set(sessionId, (session = { value: undefined, expires: now + ttl, tail: Promise.resolve() }));
    const records = heldMcpSessions(session);
    const turn = session.tail.then(() => performAny(environment, operation, body, context(stateOf(sessionId), records), true));
    session.tail = turn.catch(() => undefined);
    session.expires = now + ttl;
    return turn.finally(() => {
      if (ends) end(sessionId);
    });
  }

  return {
    describe: async () => (environment.kind === "simple" && environment.mcpServers ? describeWithSources(environment, options.secrets) : description),
    // The agent's calls are trusted, as over RPC: the row was validated when the job accepted it.
    seed: async (row) => {
      const sessionId = newSessionId();
      return { sessionId, ...(await run({ kind: "seed_session" }, row, sessionId)) };
    },
    tool: (sessionId, name, args) => run({ kind: "tool", name }, args, sessionId),
    verify: (sessionId, request) => run({ kind: "verify" }, request, sessionId, true),
    reset: async (row) => {
      const sessionId = newSessionId();
      return { sessionId, ...(await run({ kind: "reset" }, row, sessionId)) };
    },
    step: (sessionId, request) => run({ kind: "step" }, request, sessionId),
    close: (sessionId) => run({ kind: "close" }, {}, sessionId, true),
    aggregateMetrics: (verifyResponses: ReadableStream<Uint8Array>) => streamedMetrics(environment, verifyResponses),
  };
}

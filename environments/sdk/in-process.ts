// An environment run in the caller's own process (a Lambda, a Node worker): the same operations as its Worker, with each
// session's state in a Map instead of a Durable Object.
import type { EnvironmentDescription, EnvironmentRpc, ModelRpc, Outcome, SessionOperation } from "../../contracts/rpc.js";
import { describeEnvironment, describeWithSources, streamedMetrics } from "./describe.js";
import { performAny } from "./gymnasium-perform.js";
import { toolContext } from "./context.js";
import { noState } from "./perform.js";
import { OPERATION_TIMEOUT_MS } from "./refusals.js";
import type { Environment, SessionState } from "./types.js";

export interface InProcessOptions {
  /** The judge model for LLM-as-judge environments; without it a judge call fails the rollout as `judge_failed`. */
  judge?: ModelRpc;
  /** A session is forgotten this long after its last operation (the Durable Object's SESSION_TTL_SECONDS); default 1 h. */
  sessionTtlMs?: number;
  /** Secrets by name (a Worker's env bindings): an MCP server's credentials (`mcpServers`' headerSecrets). */
  secrets?: Record<string, string>;
}

interface Session {
  value: unknown;
  expires: number;
  /** Operations of one session run one after another, as in its Durable Object. */
  tail: Promise<unknown>;
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

  function sweep(now: number): void {
    if (sessions.size < SWEEP_AT) return;
    for (const [id, session] of sessions) if (session.expires <= now) sessions.delete(id);
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
    const context = (state: SessionState<unknown>) =>
      toolContext({ sessionId, state, signal: () => signal, models: { judge: options.judge }, secrets: options.secrets });
    if (!environment.stateful) return performAny(environment, operation, body, context(noState), true);
    let session = sessions.get(sessionId);
    if (!session) sessions.set(sessionId, (session = { value: undefined, expires: now + ttl, tail: Promise.resolve() }));
    const turn = session.tail.then(() => performAny(environment, operation, body, context(stateOf(sessionId)), true));
    session.tail = turn.catch(() => undefined);
    session.expires = now + ttl;
    return turn.finally(() => {
      if (ends) sessions.delete(sessionId);
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

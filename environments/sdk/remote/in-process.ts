// A remote environment in the caller's own process (AWS Lambda, Node): the RemoteClient with each session's server and
// cookie in a Map, as environments/sdk/in-process.ts does for native environments.
import type { EnvironmentRpc, Outcome } from "../../../contracts/rpc.js";
import type { RemoteEnvironmentConfig, RemoteSession } from "../../../contracts/remote.js";
import { UNKNOWN_SESSION } from "../refusals.js";
import { RemoteClient, type RemoteClientOptions } from "./client.js";
import { heldMcpSessions } from "../mcp/records.js";
import { describeRemoteWithSources, endRemoteMcpSessions, remoteMcpCall } from "./mcp.js";
import { NOT_GYMNASIUM, remoteMetrics, seedOutcome, toolFault, toolOutcome, verifyOutcome } from "./operations.js";

export interface RemoteInProcessOptions extends RemoteClientOptions {
  /** The rollout's bound on each call beyond the config's callMs (the agent's own timer is the other). */
  sessionTtlMs?: number;
}

interface Held {
  session: RemoteSession;
  /** Its per_session MCP servers' session ids (the configuration's `mcpServers`). */
  mcp?: Record<string, string>;
  expires: number;
  /** A session's calls go one after another, as NeMo Gym's agent makes them. */
  tail: Promise<unknown>;
}

export function remoteEnvironment(config: RemoteEnvironmentConfig, options: RemoteInProcessOptions): EnvironmentRpc & { client: RemoteClient } {
  const client = new RemoteClient(config, options);
  const ttl = options.sessionTtlMs ?? 3_600_000;
  const sessions = new Map<string, Held>();
  const signal = () => AbortSignal.timeout(config.timeouts.callMs + config.timeouts.connectMs);
  // The secrets the client reads (the auth's, the MCP servers' URLs and headers), as a Worker's env would hold them.
  const bindings: object = options.secrets ?? {};

  function inTurn(sessionId: string, work: (held: Held) => Promise<Outcome>, ends = false): Promise<Outcome> {
    const held = sessions.get(sessionId);
    if (!held || held.expires <= Date.now()) {
      sessions.delete(sessionId);
      return Promise.resolve(UNKNOWN_SESSION);
    }
    held.expires = Date.now() + ttl;
    const turn = held.tail.then(() => work(held));
    held.tail = turn.catch(() => undefined);
    if (!ends) return turn;
    return turn.finally(() => {
      sessions.delete(sessionId);
      void endRemoteMcpSessions(config, heldMcpSessions(held), bindings).catch(() => undefined);
    });
  }

  return {
    client,
    describe: () => describeRemoteWithSources(config, bindings),
    seed: async (row) => {
      const { outcome, session } = seedOutcome(await client.seedSession(row, signal()));
      const sessionId = crypto.randomUUID();
      if (session) sessions.set(sessionId, { session, expires: Date.now() + ttl, tail: Promise.resolve() });
      return { sessionId, ...outcome };
    },
    tool: (sessionId, name, args) =>
      inTurn(sessionId, async (held) => {
        const answered = await remoteMcpCall(config, { name, args, sessionId }, bindings, heldMcpSessions(held));
        if (answered) return answered;
        try {
          const reply = await client.tool(held.session, name, args, signal());
          held.session = reply.session;
          return toolOutcome(reply);
        } catch (error) {
          return toolFault(error);
        }
      }),
    verify: (sessionId, request) => inTurn(sessionId, async (held) => verifyOutcome(await client.verify(held.session, request, signal())), true),
    reset: async () => ({ sessionId: "", ...NOT_GYMNASIUM }),
    step: async () => NOT_GYMNASIUM,
    close: async () => NOT_GYMNASIUM,
    aggregateMetrics: (verifyResponses) => remoteMetrics(client, verifyResponses),
  };
}

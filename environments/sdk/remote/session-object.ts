// A remote session's Durable Object: it keeps the pool member and the server's cookie (contracts/remote.ts RemoteSession)
// under edgegym's own session id, and makes the session's calls to the server one at a time from there.
import { DurableObject } from "cloudflare:workers";
import type { EnvironmentEnv } from "../../../contracts/env.generated.js";
import type { RemoteEnvironmentConfig, RemoteSession } from "../../../contracts/remote.js";
import type { Outcome, SessionOperation, SessionRpc } from "../../../contracts/rpc.js";
import type { DatasetRow, VerifyRequest } from "../../../protocol/index.js";
import { environmentConfig } from "../config.js";
import { environmentLog, logOutcome } from "../log.js";
import { EXPIRED_SESSION } from "../refusals.js";
import { storedMcpSessions } from "../mcp/records.js";
import { RemoteClient } from "./client.js";
import { endRemoteMcpSessions, remoteMcpCall } from "./mcp.js";
import { NOT_GYMNASIUM, seedOutcome, toolFault, toolOutcome, verifyOutcome } from "./operations.js";

const SESSION_KEY = "remote";

/** One client per configuration and isolate: its pool's health and concurrency are shared by the isolate's sessions. */
const clients = new WeakMap<RemoteEnvironmentConfig, RemoteClient>();

export function clientFor(config: RemoteEnvironmentConfig, env: object): RemoteClient {
  let client = clients.get(config);
  if (!client) clients.set(config, (client = new RemoteClient(config, { secrets: env as Record<string, unknown> })));
  return client;
}

/**
 * A session of a remote environment, one Durable Object per edgegym session id (the `SESSIONS` namespace). The generated
 * Worker entry (local/remote.ts, infra/remote.ts) subclasses it as `EnvironmentSession`, naming the configuration.
 * Responsibilities: seed on a pool member and keep that member and the cookie; run tool and verify calls there with the
 * cookie, keeping every Set-Cookie; refuse a call on a session never opened or expired; delete itself by alarm.
 */
export abstract class RemoteSessionObject extends DurableObject<EnvironmentEnv> implements SessionRpc {
  protected abstract readonly config: RemoteEnvironmentConfig;

  /** The session's per_session MCP servers' session ids (the configuration's `mcpServers`). */
  readonly #mcpSessions = storedMcpSessions(this.ctx.storage);

  async perform(operation: SessionOperation, body: unknown, sessionId: string, trusted: boolean, opens = false): Promise<Outcome> {
    const started = Date.now();
    const outcome = await this.#perform(operation, body, sessionId, trusted, opens);
    const ttl = environmentConfig(this.env).SESSION_TTL_SECONDS * 1000;
    await this.ctx.storage.setAlarm(Date.now() + ttl);
    return logOutcome(() => environmentLog(this.env, this.config.name), operation, outcome, started);
  }

  async #perform(operation: SessionOperation, body: unknown, sessionId: string, trusted: boolean, opens: boolean): Promise<Outcome> {
    const client = clientFor(this.config, this.env);
    const signal = AbortSignal.timeout(this.config.timeouts.callMs + this.config.timeouts.connectMs);
    if (opens) {
      if (operation.kind !== "seed_session") return NOT_GYMNASIUM;
      const { outcome, session } = seedOutcome(await client.seedSession((body ?? {}) as DatasetRow, signal));
      if (session) await this.ctx.storage.put(SESSION_KEY, session);
      return outcome;
    }
    const session = await this.ctx.storage.get<RemoteSession>(SESSION_KEY);
    if (!session) return EXPIRED_SESSION;
    if (operation.kind === "tool") {
      const answered = await remoteMcpCall(this.config, { name: operation.name, args: body, sessionId }, this.env, this.#mcpSessions);
      if (answered) return answered;
      try {
        const reply = await client.tool(session, operation.name, body, signal);
        await this.ctx.storage.put(SESSION_KEY, reply.session);
        return toolOutcome(reply);
      } catch (error) {
        return toolFault(error);
      }
    }
    if (operation.kind === "verify") {
      const reply = await client.verify(session, body as VerifyRequest, signal);
      await this.ctx.storage.put(SESSION_KEY, reply.session);
      return verifyOutcome(reply, trusted);
    }
    return NOT_GYMNASIUM;
  }

  override async alarm(): Promise<void> {
    await endRemoteMcpSessions(this.config, this.#mcpSessions, this.env);
    await this.ctx.storage.deleteAll();
  }
}

// A remote environment's RPC entrypoint (`ENV_<NAME>`): the same EnvironmentRpc a native environment's Worker offers, so
// the agent, gateway, jobs, discovery routes and dashboard see one more environment (contracts/README.md decision 2).
import { WorkerEntrypoint } from "cloudflare:workers";
import type { EnvironmentEnv } from "../../../contracts/env.generated.js";
import type { RemoteEnvironmentConfig } from "../../../contracts/remote.js";
import type { EnvironmentDescription, EnvironmentRpc, Outcome, RpcResult, SessionOutcome, SessionOwner } from "../../../contracts/rpc.js";
import type { AggregateMetrics, DatasetRow, VerifyRequest } from "../../../protocol/index.js";
import { remoteApp } from "./app.js";
import { describeRemoteWithSources } from "./mcp.js";
import { NOT_GYMNASIUM, remoteMetrics } from "./operations.js";
import { continueRemote, openRemote } from "./run.js";
import { clientFor } from "./session-object.js";

const apps = new WeakMap<RemoteEnvironmentConfig, ReturnType<typeof remoteApp>>();

function appOf(config: RemoteEnvironmentConfig): ReturnType<typeof remoteApp> {
  let app = apps.get(config);
  if (!app) apps.set(config, (app = remoteApp(config)));
  return app;
}

/** The Worker's default (HTTP) handler: the remote environment's Hono app. */
export function remoteHandler(config: RemoteEnvironmentConfig) {
  return { fetch: (request, env, ctx) => appOf(config).fetch(request, env, ctx) } satisfies ExportedHandler<EnvironmentEnv>;
}

/**
 * The RPC entrypoint of a remote environment's Worker. The generated entry subclasses it as `EnvironmentEntrypoint`,
 * naming its configuration. Responsibilities: describe the environment (kind simple, the configured tools or none);
 * open sessions (edgegym's signed id; the server's session in that id's Durable Object); run tool and verify calls there;
 * aggregate metrics through the server's /aggregate_metrics when it has one.
 */
export abstract class RemoteEntrypoint extends WorkerEntrypoint<EnvironmentEnv> implements EnvironmentRpc {
  protected abstract readonly config: RemoteEnvironmentConfig;

  override fetch(request: Request): Response | Promise<Response> {
    return appOf(this.config).fetch(request, this.env, this.ctx);
  }

  describe(): Promise<EnvironmentDescription> {
    return describeRemoteWithSources(this.config, this.env);
  }

  seed(row: DatasetRow, owner: SessionOwner): Promise<SessionOutcome> {
    return openRemote(this.config, this.env, row, owner, true);
  }

  tool(sessionId: string, name: string, args: unknown, owner: SessionOwner): Promise<Outcome> {
    return continueRemote(this.config, this.env, { kind: "tool", name }, args, sessionId, owner, true);
  }

  verify(sessionId: string, request: VerifyRequest, owner: SessionOwner): Promise<Outcome> {
    return continueRemote(this.config, this.env, { kind: "verify" }, request, sessionId, owner, true);
  }

  async reset(): Promise<SessionOutcome> {
    return { sessionId: "", ...NOT_GYMNASIUM };
  }

  async step(): Promise<Outcome> {
    return NOT_GYMNASIUM;
  }

  async close(): Promise<Outcome> {
    return NOT_GYMNASIUM;
  }

  aggregateMetrics(verifyResponses: ReadableStream<Uint8Array>): Promise<RpcResult<AggregateMetrics>> {
    return remoteMetrics(clientFor(this.config, this.env), verifyResponses);
  }
}

// An environment's RPC entrypoint: what the agent and writer call (typed, structured values), beside the HTTP app.
import { WorkerEntrypoint } from "cloudflare:workers";
import type { EnvironmentBindings } from "./bindings.js";
import type {
  EnvironmentDescription,
  EnvironmentRpc,
  Outcome,
  RpcResult,
  SessionOperation,
  SessionOutcome,
  SessionOwner,
  StepRequest,
} from "../../contracts/rpc.js";
import type { AggregateMetrics, DatasetRow, VerifyRequest } from "../../protocol/index.js";
import { environmentApp } from "./app.js";
import { describeEnvironment, describeWithSources, streamedMetrics } from "./describe.js";
import { continueSession, openSession, type SessionCall } from "./run.js";
import type { Environment } from "./types.js";

// Module functions, not methods: every method of an entrypoint is callable over RPC.

/** One app and one description per environment, made on first use (workerd makes an entrypoint per call). */
const apps = new WeakMap<Environment, ReturnType<typeof environmentApp>>();
const descriptions = new WeakMap<Environment, EnvironmentDescription>();

function appOf(environment: Environment): ReturnType<typeof environmentApp> {
  let app = apps.get(environment);
  if (!app) apps.set(environment, (app = environmentApp(environment)));
  return app;
}

function descriptionOf(environment: Environment): EnvironmentDescription {
  let description = descriptions.get(environment);
  if (!description) descriptions.set(environment, (description = describeEnvironment(environment)));
  return description;
}

/** The Worker's default (HTTP) handler: the environment's Hono app, for outside callers. */
export function environmentHandler(environment: Environment) {
  return { fetch: appOf(environment).fetch } satisfies ExportedHandler<EnvironmentBindings>;
}

/** The agent's calls are trusted: its row was validated when it came in, its responses built by the model proxy. */
function trustedCall(environment: Environment, env: EnvironmentBindings, operation: SessionOperation, body: unknown, owner: SessionOwner): SessionCall {
  return { environment, env, operation, body, owner, trusted: true };
}

/**
 * The RPC entrypoint of an environment's Worker (the service binding `ENV_<NAME>` the gateway, agent and writer hold).
 * Each environment's generated Worker entry (infra/environments.ts) subclasses it as `EnvironmentEntrypoint`, naming
 * the environment it serves. Responsibilities: describe the environment; open sessions (seed, reset) and run their
 * later operations (tool, verify, step, close) through run.ts, which signs session ids for their owner and sends a
 * stateful environment's operations to its session Durable Object (EnvironmentSession); aggregate verify responses.
 */
export abstract class EnvironmentEntrypoint extends WorkerEntrypoint<EnvironmentBindings> implements EnvironmentRpc {
  /** The environment this Worker serves (an instance field: not exposed over RPC). */
  protected abstract readonly environment: Environment;

  override fetch(request: Request): Response | Promise<Response> {
    return appOf(this.environment).fetch(request, this.env, this.ctx);
  }

  async describe(): Promise<EnvironmentDescription> {
    // An environment with MCP servers lists their tools each time (each server's listing is kept once made).
    if (this.environment.kind === "simple" && this.environment.mcpServers) return describeWithSources(this.environment, this.env);
    return descriptionOf(this.environment);
  }

  seed(row: DatasetRow, owner: SessionOwner): Promise<SessionOutcome> {
    return openSession(trustedCall(this.environment, this.env, { kind: "seed_session" }, row, owner));
  }

  tool(sessionId: string, name: string, args: unknown, owner: SessionOwner): Promise<Outcome> {
    return continueSession(trustedCall(this.environment, this.env, { kind: "tool", name }, args, owner), sessionId);
  }

  verify(sessionId: string, request: VerifyRequest, owner: SessionOwner): Promise<Outcome> {
    return continueSession(trustedCall(this.environment, this.env, { kind: "verify" }, request, owner), sessionId);
  }

  reset(row: DatasetRow, owner: SessionOwner): Promise<SessionOutcome> {
    return openSession(trustedCall(this.environment, this.env, { kind: "reset" }, row, owner));
  }

  step(sessionId: string, request: StepRequest, owner: SessionOwner): Promise<Outcome> {
    return continueSession(trustedCall(this.environment, this.env, { kind: "step" }, request, owner), sessionId);
  }

  close(sessionId: string, owner: SessionOwner): Promise<Outcome> {
    return continueSession(trustedCall(this.environment, this.env, { kind: "close" }, {}, owner), sessionId);
  }

  aggregateMetrics(verifyResponses: ReadableStream<Uint8Array>): Promise<RpcResult<AggregateMetrics>> {
    return streamedMetrics(this.environment, verifyResponses);
  }
}

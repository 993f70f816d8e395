// An environment's RPC entrypoint: what the agent and writer call (typed, structured values), beside the HTTP app.
import { WorkerEntrypoint } from "cloudflare:workers";
import type { EnvironmentEnv } from "../../contracts/env.generated.js";
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
import { describeEnvironment, streamedMetrics } from "./describe.js";
import { continueSession, openSession, type SessionCall } from "./run.js";
import type { Environment } from "./types.js";

export function entrypointFor(
  environment: Environment,
  app: { fetch(request: Request, env: EnvironmentEnv, ctx: ExecutionContext): Response | Promise<Response> },
) {
  const description = describeEnvironment(environment);
  // The agent's calls are trusted: its row was validated when it came in, its responses built by the model proxy.
  // (A function here, not a method: every method of the entrypoint is callable over RPC.)
  const call = (env: EnvironmentEnv, operation: SessionOperation, body: unknown, owner: SessionOwner): SessionCall => ({
    environment,
    env,
    operation,
    body,
    owner,
    trusted: true,
  });

  return class EnvironmentEntrypoint extends WorkerEntrypoint<EnvironmentEnv> implements EnvironmentRpc {
    override fetch(request: Request): Response | Promise<Response> {
      return app.fetch(request, this.env, this.ctx);
    }

    async describe(): Promise<EnvironmentDescription> {
      return description;
    }

    seed(row: DatasetRow, owner: SessionOwner): Promise<SessionOutcome> {
      return openSession(call(this.env, { kind: "seed_session" }, row, owner));
    }

    tool(sessionId: string, name: string, args: unknown, owner: SessionOwner): Promise<Outcome> {
      return continueSession(call(this.env, { kind: "tool", name }, args, owner), sessionId);
    }

    verify(sessionId: string, request: VerifyRequest, owner: SessionOwner): Promise<Outcome> {
      return continueSession(call(this.env, { kind: "verify" }, request, owner), sessionId);
    }

    reset(row: DatasetRow, owner: SessionOwner): Promise<SessionOutcome> {
      return openSession(call(this.env, { kind: "reset" }, row, owner));
    }

    step(sessionId: string, request: StepRequest, owner: SessionOwner): Promise<Outcome> {
      return continueSession(call(this.env, { kind: "step" }, request, owner), sessionId);
    }

    close(sessionId: string, owner: SessionOwner): Promise<Outcome> {
      return continueSession(call(this.env, { kind: "close" }, {}, owner), sessionId);
    }

    aggregateMetrics(verifyResponses: ReadableStream<Uint8Array>): Promise<RpcResult<AggregateMetrics>> {
      return streamedMetrics(environment, verifyResponses);
    }
  };
}

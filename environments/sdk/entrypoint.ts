// An environment's RPC entrypoint: what the agent and writer call (typed, structured values), beside the HTTP app.
import { WorkerEntrypoint } from "cloudflare:workers";
import type { EnvironmentEnv } from "../../contracts/env.generated.js";
import type { EnvironmentDescription, EnvironmentRpc, Outcome, RpcResult, SessionOutcome, StepRequest } from "../../contracts/rpc.js";
import { lines } from "../../http/jsonl.js";
import { type AggregateMetrics, type DatasetRow, EdgegymError, type VerifyRequest, type VerifyResult } from "../../protocol/index.js";
import { describeEnvironment, environmentMetrics } from "./describe.js";
import { runOperation } from "./run.js";
import { newSessionId } from "./session.js";
import type { Environment } from "./types.js";

export function entrypointFor(
  environment: Environment,
  app: { fetch(request: Request, env: EnvironmentEnv, ctx: ExecutionContext): Response | Promise<Response> },
) {
  const description = describeEnvironment(environment);

  return class EnvironmentEntrypoint extends WorkerEntrypoint<EnvironmentEnv> implements EnvironmentRpc {
    override fetch(request: Request): Response | Promise<Response> {
      return app.fetch(request, this.env, this.ctx);
    }

    async describe(): Promise<EnvironmentDescription> {
      return description;
    }

    // The agent's calls are trusted: its row was validated when it came in, its responses built by the model proxy.
    async seed(row: DatasetRow): Promise<SessionOutcome> {
      const sessionId = newSessionId();
      return { sessionId, ...(await runOperation(environment, this.env, { kind: "seed_session" }, row, sessionId, true)) };
    }

    tool(sessionId: string, name: string, args: unknown): Promise<Outcome> {
      return runOperation(environment, this.env, { kind: "tool", name }, args, sessionId, true);
    }

    verify(sessionId: string, request: VerifyRequest): Promise<Outcome> {
      return runOperation(environment, this.env, { kind: "verify" }, request, sessionId, true);
    }

    async reset(row: DatasetRow): Promise<SessionOutcome> {
      const sessionId = newSessionId();
      return { sessionId, ...(await runOperation(environment, this.env, { kind: "reset" }, row, sessionId, true)) };
    }

    step(sessionId: string, request: StepRequest): Promise<Outcome> {
      return runOperation(environment, this.env, { kind: "step" }, request, sessionId, true);
    }

    close(sessionId: string): Promise<Outcome> {
      return runOperation(environment, this.env, { kind: "close" }, {}, sessionId, true);
    }

    async aggregateMetrics(verifyResponses: ReadableStream<Uint8Array>): Promise<RpcResult<AggregateMetrics>> {
      const responses: VerifyResult[] = [];
      for await (const line of lines(verifyResponses)) if (line) responses.push(JSON.parse(line) as VerifyResult);
      try {
        return { ok: true, value: environmentMetrics(environment, responses) };
      } catch (error) {
        const status = error instanceof EdgegymError ? error.status : 500;
        return { ok: false, error: { status, code: "aggregate_metrics_failed", message: error instanceof Error ? error.message : String(error) } };
      }
    }
  };
}

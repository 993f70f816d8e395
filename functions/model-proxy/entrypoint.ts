// The model proxy over RPC: the agent's (and the judge's) model turns, typed values in and out, no JSON between Workers.
import { WorkerEntrypoint } from "cloudflare:workers";
import type { ModelProxyEnv } from "../../contracts/env.generated.js";
import type { ModelCallOptions, ModelRpc, RpcResult } from "../../contracts/rpc.js";
import { rpcError } from "../../http/errors.js";
import type { ResponsesCreateParams, Response as ResponsesResponse } from "../../protocol/index.js";
import { app } from "./app.js";
import { callConfig } from "./call-config.js";
import { proxyConfig, proxyLog } from "./config.js";
import { resolverFor } from "./resolver.js";
import { respondTurn } from "./turn.js";

export class ModelEntrypoint extends WorkerEntrypoint<ModelProxyEnv> implements ModelRpc {
  override fetch(request: Request): Response | Promise<Response> {
    return app.fetch(request, this.env, this.ctx);
  }

  async respond(params: ResponsesCreateParams, options: ModelCallOptions = {}): Promise<RpcResult<ResponsesResponse>> {
    const log = proxyLog(this.env);
    const started = Date.now();
    try {
      // The caller's policy model and token choice, for this call only.
      const config = callConfig(proxyConfig(this.env), options, resolverFor(this.env));
      // The caller's time as a deadline, not a signal: the attempt's own timer enforces it.
      const context = {
        ...(options.sessionId ? { sessionId: options.sessionId } : {}),
        ...(options.timeoutMs ? { deadlineAt: Date.now() + options.timeoutMs } : {}),
        log,
      };
      const { response, turn } = await respondTurn(config, params, context);
      log.debug("model turn", { outcome: "ok", attempts: turn.attempts, duration_ms: Date.now() - started });
      return { ok: true, value: response };
    } catch (error) {
      const answer = rpcError(error);
      log.warn("model turn failed", { outcome: answer.code, status: answer.status, error: answer.message, duration_ms: Date.now() - started });
      return { ok: false, error: answer };
    }
  }
}

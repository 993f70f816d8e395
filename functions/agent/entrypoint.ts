// The agent over RPC: the gateway's /run hands it a validated row and gets the scored record back, or the error as data.
import { WorkerEntrypoint } from "cloudflare:workers";
import type { AgentEnv } from "../../contracts/env.generated.js";
import type { AgentRpc, JsonRecord, RpcResult, RunOptions } from "../../contracts/rpc.js";
import { rpcError } from "../../http/errors.js";
import { silentLog } from "../../http/log.js";
import { type DatasetRow, ROLLOUT_ID } from "../../protocol/index.js";
import { executeRow } from "./execute.js";
import { cloudflarePorts, runnerShards } from "./ports.js";

export class AgentEntrypoint extends WorkerEntrypoint<AgentEnv> implements AgentRpc {
  async run(row: DatasetRow, options: RunOptions = {}): Promise<RpcResult<JsonRecord>> {
    const ports = cloudflarePorts(this.env);
    const log = (ports.log ?? silentLog).child({ request_id: options.requestId });
    const started = Date.now();
    try {
      const { record, environment } = await executeRow(ports, row, options);
      log.info("run done", { rollout_id: String(record[ROLLOUT_ID]), environment, outcome: "ok", reward: record.reward, duration_ms: Date.now() - started });
      return { ok: true, value: record };
    } catch (error) {
      const answer = rpcError(error);
      log.warn("run failed", {
        environment: options.environment,
        outcome: answer.code,
        status: answer.status,
        error: answer.message,
        duration_ms: Date.now() - started,
      });
      return { ok: false, error: answer };
    }
  }

  async cancelled(jobId: string): Promise<{ dropped: number }> {
    const answers = await Promise.all(runnerShards(this.env).map((runner) => runner.drop(jobId)));
    const dropped = answers.reduce((n, answer) => n + answer.dropped, 0);
    (cloudflarePorts(this.env).log ?? silentLog).info("cancelled job's waiting rollouts dropped", { job_id: jobId, outcome: "cancelled", dropped });
    return { dropped };
  }
}

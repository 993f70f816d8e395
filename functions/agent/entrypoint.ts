// The agent over RPC: the gateway's /run hands it a validated row and gets the scored record back, or the error as data.
import { WorkerEntrypoint } from "cloudflare:workers";
import type { AgentEnv } from "../../contracts/env.generated.js";
import type { AgentRpc, JsonRecord, RpcResult, RunOptions } from "../../contracts/rpc.js";
import { rpcError } from "../../http/errors.js";
import type { DatasetRow } from "../../protocol/index.js";
import { executeRow } from "./execute.js";
import { cloudflarePorts } from "./ports.js";

export class AgentEntrypoint extends WorkerEntrypoint<AgentEnv> implements AgentRpc {
  async run(row: DatasetRow, options: RunOptions = {}): Promise<RpcResult<JsonRecord>> {
    try {
      const { record } = await executeRow(cloudflarePorts(this.env), row, options);
      return { ok: true, value: record };
    } catch (error) {
      return { ok: false, error: rpcError(error) };
    }
  }
}

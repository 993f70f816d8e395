// What the agent needs of the world, as interfaces: the Worker builds them from its bindings, the Lambda and the Node
// worker from AWS clients, tests from fakes. The agent's logic sees nothing else.
import type { AgentConfig } from "../../contracts/config.js";
import { AgentVars, configCache } from "../../contracts/config.js";
import type { AgentEnv } from "../../contracts/env.generated.js";
import { environmentService } from "../../contracts/environments.js";
import type { JobLedger, JobRpc } from "../../contracts/jobs.js";
import type { WorkMessage } from "../../contracts/messages.js";
import type { EnvironmentRpc, ModelRpc } from "../../contracts/rpc.js";
import type { RunnerRpc } from "../../contracts/runner.js";
import { type Logger, workerLogger } from "../../http/log.js";
import { objectLedger } from "../../ledger/index.js";
import { perEnv } from "../../http/per-env.js";
import { cloudflareQueue } from "../../queues/cloudflare.js";
import { guardedQueue } from "../../queues/guarded.js";
import type { MessageQueue } from "../../queues/queue.js";
import { guardedStore } from "../../storage/guarded.js";
import { r2Store } from "../../storage/r2.js";
import type { ObjectStore } from "../../storage/store.js";

export interface AgentPorts {
  config: AgentConfig;
  model: ModelRpc;
  /** The environment's RPC surface, if it is deployed with this agent. */
  environment(name: string): EnvironmentRpc | undefined;
  /** The names of the environments deployed with this agent. */
  environments: readonly string[];
  rollouts: MessageQueue<WorkMessage>;
  /**
   * Where results go: the `results` queue, in their wire form (contracts/messages.ts encodeResult), for the writer to record;
   * or the job ledger itself, where the agent has it in reach (AWS: the bucket).
   */
  results: MessageQueue<string> | Pick<JobLedger, "record">;
  store: ObjectStore;
  job(id: string): Pick<JobRpc, "wanted" | "started" | "abandon">;
  /** Structured logs (http/log.ts); silent when not given. */
  log?: Logger;
  /** The rollout runners the consumer hands rollouts to, by shard (absent where there are none: the consumer runs them). */
  runner?(shard: number): Pick<RunnerRpc, "accept">;
}

const config = configCache(AgentVars, "agent");

function runnerStub(env: AgentEnv, shard: number): RunnerRpc {
  return env.RUNNERS.getByName(`runner-${shard}`);
}

/** Every rollout runner of this agent, by shard (none when RUNNERS is not bound or RUNNER_SHARDS is 0). */
export function runnerShards(env: AgentEnv, parsed: AgentConfig = config(env)): RunnerRpc[] {
  return env.RUNNERS && parsed.RUNNER_SHARDS > 0 ? Array.from({ length: parsed.RUNNER_SHARDS }, (_, shard) => runnerStub(env, shard)) : [];
}
/** The agent Worker's ports, from its bindings (built once per isolate). */
export const cloudflarePorts = perEnv((env: AgentEnv): AgentPorts => {
  const parsed = config(env);
  const store = guardedStore(r2Store(env.BUCKET), { writeFailureRate: parsed.CHAOS_STORE_WRITE_FAILURE_RATE });
  return {
    config: parsed,
    model: env.MODEL_PROXY,
    environment: (name) => environmentService(env, parsed.ENVIRONMENTS, name),
    environments: parsed.ENVIRONMENTS,
    // Every bucket and queue call is bounded in time; the chaos rates are 0 outside the chaos suite.
    rollouts: guardedQueue(cloudflareQueue(env.ROLLOUTS), { sendFailureRate: parsed.CHAOS_QUEUE_SEND_FAILURE_RATE }),
    results: guardedQueue(cloudflareQueue(env.RESULTS), { sendFailureRate: parsed.CHAOS_QUEUE_SEND_FAILURE_RATE }),
    store,
    job: objectLedger(env.JOBS, store).job,
    log: workerLogger("agent", parsed.LOG_LEVEL),
    ...(runnerShards(env, parsed).length > 0 ? { runner: (shard: number) => runnerStub(env, shard) } : {}),
  };
});

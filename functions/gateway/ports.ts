// What the gateway works with, built once per isolate from its bindings: config, bucket, queue and the jobs' ledger.
import { configCache, type GatewayConfig, GatewayVars } from "../../contracts/config.js";
import type { GatewayEnv } from "../../contracts/env.generated.js";
import type { JobRpc } from "../../contracts/jobs.js";
import type { WorkMessage } from "../../contracts/messages.js";
import { type ObjectLedger, objectLedger } from "../../ledger/index.js";
import { perEnv } from "../../http/per-env.js";
import { cloudflareQueue } from "../../queues/cloudflare.js";
import { guardedQueue } from "../../queues/guarded.js";
import type { MessageQueue } from "../../queues/queue.js";
import { guardedStore } from "../../storage/guarded.js";
import { r2Store } from "../../storage/r2.js";
import type { ObjectStore } from "../../storage/store.js";

export interface GatewayPorts {
  config: GatewayConfig;
  store: ObjectStore;
  rollouts: MessageQueue<WorkMessage>;
  /** Jobs' ledger: their Job objects. */
  ledger: ObjectLedger;
  job(id: string): JobRpc;
}

const config = configCache(GatewayVars, "gateway");
export const gatewayPorts = perEnv((env: GatewayEnv): GatewayPorts => {
  const store = guardedStore(r2Store(env.BUCKET));
  const ledger = objectLedger(env.JOBS, store);
  return { config: config(env), store, rollouts: guardedQueue(cloudflareQueue(env.ROLLOUTS)), ledger, job: ledger.job };
});

// What the gateway works with, built once per isolate from its bindings: config, bucket, queue and Job objects.
import { configCache, type GatewayConfig, GatewayVars } from "../../contracts/config.js";
import type { GatewayEnv } from "../../contracts/env.generated.js";
import type { JobRpc } from "../../contracts/jobs.js";
import { boundedJob } from "../../http/bounded.js";
import type { WorkMessage } from "../../contracts/messages.js";
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
  job(id: string): JobRpc;
}

const config = configCache(GatewayVars, "gateway");
const cache = new WeakMap<GatewayEnv, GatewayPorts>();

export function gatewayPorts(env: GatewayEnv): GatewayPorts {
  let ports = cache.get(env);
  if (!ports) {
    ports = {
      config: config(env),
      store: guardedStore(r2Store(env.BUCKET)),
      rollouts: guardedQueue(cloudflareQueue(env.ROLLOUTS)),
      job: (id) => boundedJob(env.JOBS.get(env.JOBS.idFromName(id))),
    };
    cache.set(env, ports);
  }
  return ports;
}

// What the writer Worker works with, built once per isolate from its bindings: the results consumer and the Job objects
// both take theirs from here.
import { configCache, type WriterConfig, WriterVars } from "../../contracts/config.js";
import type { WriterEnv } from "../../contracts/env.generated.js";
import type { JobRpc } from "../../contracts/jobs.js";
import type { WorkMessage } from "../../contracts/messages.js";
import { type Logger, workerLogger } from "../../http/log.js";
import { objectLedger } from "../../ledger/index.js";
import { perEnv } from "../../http/per-env.js";
import { cloudflareQueue } from "../../queues/cloudflare.js";
import { guardedQueue } from "../../queues/guarded.js";
import type { MessageQueue } from "../../queues/queue.js";
import { guardedStore } from "../../storage/guarded.js";
import { r2Store } from "../../storage/r2.js";
import type { ObjectStore } from "../../storage/store.js";

export interface WriterPorts {
  config: WriterConfig;
  store: ObjectStore;
  /** Where a resume or a heal re-enqueues what is missing. */
  rollouts: MessageQueue<WorkMessage>;
  /** A job's Job object, each call bounded in time. */
  job(id: string): Pick<JobRpc, "record" | "abandon">;
  log: Logger;
}

const config = configCache(WriterVars, "writer");
export const writerPorts = perEnv((env: WriterEnv): WriterPorts => {
  const parsed = config(env);
  // Every bucket and queue call is bounded in time; the chaos rates are 0 outside the chaos suite.
  const store = guardedStore(r2Store(env.BUCKET), { writeFailureRate: parsed.CHAOS_STORE_WRITE_FAILURE_RATE });
  return {
    config: parsed,
    store,
    rollouts: guardedQueue(cloudflareQueue(env.ROLLOUTS), { sendFailureRate: parsed.CHAOS_QUEUE_SEND_FAILURE_RATE }),
    job: objectLedger(env.JOBS, store).job,
    log: workerLogger("writer", parsed.LOG_LEVEL),
  };
});

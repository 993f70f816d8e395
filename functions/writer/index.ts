// writer Worker entry: the `results` queue consumer (and its dead-letter queue's), and host of the Job Durable Object.
import { configCache, WriterVars } from "../../contracts/config.js";
import type { WriterEnv } from "../../contracts/env.generated.js";
import { boundedJob } from "../../http/bounded.js";
import { workerLogger } from "../../http/log.js";
import { guardedStore } from "../../storage/guarded.js";
import { r2Store } from "../../storage/r2.js";
import { handleResults, type WriterPorts } from "./consumer.js";

export { Job } from "./job.js";

const config = configCache(WriterVars, "writer");
const cache = new WeakMap<WriterEnv, WriterPorts>();

function writerPorts(env: WriterEnv): WriterPorts {
  let ports = cache.get(env);
  if (!ports) {
    const parsed = config(env);
    ports = {
      store: guardedStore(r2Store(env.BUCKET), { writeFailureRate: parsed.CHAOS_STORE_WRITE_FAILURE_RATE }),
      jobs: env.JOBS,
      job: (id) => boundedJob(env.JOBS.get(env.JOBS.idFromName(id))),
      log: workerLogger("writer", parsed.LOG_LEVEL),
      retryBaseSeconds: parsed.RETRY_BASE_SECONDS,
    };
    cache.set(env, ports);
  }
  return ports;
}

export default {
  async fetch() {
    return new Response("the writer has no HTTP surface", { status: 404 });
  },
  queue: (batch, env) => handleResults(batch, writerPorts(env)),
} satisfies ExportedHandler<WriterEnv>;

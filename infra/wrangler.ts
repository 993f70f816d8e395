// A Worker's wrangler configuration, from the topology: for `wrangler deploy --dry-run` and `wrangler dev` of one Worker.
import { BUCKET_NAME, COMPATIBILITY_DATE, type WorkerSpec } from "./topology.js";

export interface WranglerConfig {
  name: string;
  main: string;
  compatibility_date: string;
  compatibility_flags?: string[];
  vars?: Record<string, string>;
  services?: { binding: string; service: string; entrypoint?: string }[];
  durable_objects?: { bindings: { name: string; class_name: string; script_name?: string }[] };
  migrations?: { tag: string; new_sqlite_classes: string[] }[];
  queues?: {
    producers?: { binding: string; queue: string }[];
    consumers?: { queue: string; max_batch_size: number; max_batch_timeout: number; max_retries: number; dead_letter_queue?: string }[];
  };
  r2_buckets?: { binding: string; bucket_name: string }[];
  /** Workers Logs: every Worker's structured log lines (http/log.ts) collected, searchable in the dashboard. */
  observability?: { enabled: boolean; head_sampling_rate?: number };
}

/** `main` is the entry path as wrangler should see it from where the config file is written. */
export function wranglerConfig(spec: WorkerSpec, main: string): WranglerConfig {
  const own = Object.values(spec.durableObjects)
    .filter((t) => !t.scriptName)
    .map((t) => t.className);
  const config: WranglerConfig = { name: spec.name, main, compatibility_date: COMPATIBILITY_DATE, observability: { enabled: true, head_sampling_rate: 1 } };
  if (Object.keys(spec.vars).length) config.vars = spec.vars;
  // The Sandbox SDK (SANDBOX_PROVIDER=cloudflare) imports node:path/posix.
  if (spec.vars.SANDBOX_PROVIDER === "cloudflare") config.compatibility_flags = ["nodejs_compat"];
  if (Object.keys(spec.services).length)
    config.services = Object.entries(spec.services).map(([binding, target]) => ({
      binding,
      service: target.worker,
      ...(target.entrypoint ? { entrypoint: target.entrypoint } : {}),
    }));
  if (Object.keys(spec.durableObjects).length) {
    config.durable_objects = {
      bindings: Object.entries(spec.durableObjects).map(([name, t]) => ({
        name,
        class_name: t.className,
        ...(t.scriptName ? { script_name: t.scriptName } : {}),
      })),
    };
  }
  if (own.length) config.migrations = [{ tag: "v1", new_sqlite_classes: [...new Set(own)] }];
  const producers = Object.entries(spec.queueProducers ?? {}).map(([binding, queue]) => ({ binding, queue }));
  const consumers = Object.entries(spec.queueConsumers ?? {}).map(([queue, c]) => ({
    queue,
    max_batch_size: c.maxBatchSize,
    max_batch_timeout: Math.max(1, Math.round(c.maxBatchTimeout)),
    max_retries: c.maxRetries,
    ...(c.deadLetterQueue ? { dead_letter_queue: c.deadLetterQueue } : {}),
  }));
  if (producers.length || consumers.length) config.queues = { ...(producers.length ? { producers } : {}), ...(consumers.length ? { consumers } : {}) };
  const buckets = Object.entries(spec.buckets ?? {}).map(([binding]) => ({ binding, bucket_name: BUCKET_NAME }));
  if (buckets.length) config.r2_buckets = buckets;
  return config;
}

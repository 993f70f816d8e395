// Completion without a Job object: a chunk whose results are all in is assembled and sealed by whoever sees it complete,
// and the job is finished (metrics, completion marker) by whoever seals its last chunk. Every step is idempotent.
import { z } from "zod";
import { countedClass, emptyFailureCounts } from "../contracts/failures.js";
import type { EnvironmentRpc } from "../contracts/rpc.js";
import { aggregateMetrics } from "../metrics/index.js";
import type { AggregateMetrics, VerifyResult } from "../protocol/index.js";
import { listAll, type ObjectStore } from "../storage/store.js";
import { ledgerKeys } from "./keys.js";
import type { Manifest } from "./manifest.js";
import { assemble, counts, listResults, pairsOf } from "./records.js";

/** Failures by class; absent from a seal or completion marker written before classes were counted. */
const FailedByClass = z.record(z.string(), z.number().int()).optional();

export const Seal = z.object({
  done: z.number().int(),
  failed: z.number().int(),
  summaries: z.record(z.string(), z.array(z.record(z.string(), z.unknown()))),
  failed_by_class: FailedByClass,
});
export type Seal = z.infer<typeof Seal>;

export const Completed = z.object({ done: z.number().int(), failed: z.number().int(), completed_at: z.number(), failed_by_class: FailedByClass });
export type Completed = z.infer<typeof Completed>;

export interface SealOptions {
  /** An environment's own aggregate metrics (its compute_metrics hooks); NeMo Gym's defaults where it has none. */
  environment?(name: string): Pick<EnvironmentRpc, "aggregateMetrics"> | undefined;
}

export async function readJson<T>(store: ObjectStore, key: string, schema: z.ZodType<T>): Promise<T | null> {
  const object = await store.get(key);
  if (!object) return null;
  return schema.parse(await object.json());
}

/** Whether a key has an object (its small body read, so an S3 response frees its socket). */
export async function exists(store: ObjectStore, key: string): Promise<boolean> {
  const object = await store.get(key);
  if (!object) return false;
  await object.bytes();
  return true;
}

/** Assembles a chunk whose every (task, repeat) has a result and writes its seal; false (nothing written) when one is missing. */
export async function sealChunk(store: ObjectStore, manifest: Manifest, chunk: number): Promise<boolean> {
  const kept = await listResults(store, manifest, { chunk });
  if (kept.size < pairsOf(manifest, chunk).length) return false;
  const assembled = await assemble(store, manifest, chunk, kept);
  const jsonl = (lines: string[]) => lines.map((line) => `${line}\n`).join("");
  const type = { contentType: "application/x-ndjson" };
  // Both kinds are written, even empty, so a chunk sealed again (after a resume) leaves nothing stale behind.
  await store.put(ledgerKeys.assembled(manifest.id, "rollout", chunk), jsonl(assembled.rollouts), type);
  await store.put(ledgerKeys.assembled(manifest.id, "failure", chunk), jsonl(assembled.failures), type);
  const seal: Seal = { ...counts(kept.values()), summaries: assembled.summaries, failed_by_class: assembled.failedByClass };
  await store.put(ledgerKeys.seal(manifest.id, chunk), JSON.stringify(seal), { contentType: "application/json" });
  return true;
}

/** How many keys a prefix holds (a chunk's task markers: at most its rows). */
export async function countKeys(store: ObjectStore, prefix: string): Promise<number> {
  let count = 0;
  for await (const page of listAll(store, { prefix })) count += page.keys.length;
  return count;
}

/** The chunks that have a seal. */
export async function sealedChunks(store: ObjectStore, manifest: Manifest): Promise<Set<number>> {
  const sealed = new Set<number>();
  const prefix = ledgerKeys.seals(manifest.id);
  for await (const page of listAll(store, { prefix })) {
    for (const key of page.keys) {
      const chunk = Number(key.slice(prefix.length).replace(/\.json$/, ""));
      if (Number.isInteger(chunk) && chunk < manifest.chunks) sealed.add(chunk);
    }
  }
  return sealed;
}

const encoder = new TextEncoder();

async function metricsOf(options: SealOptions, environment: string, summaries: VerifyResult[]): Promise<AggregateMetrics> {
  const own = options.environment?.(environment);
  if (own) {
    const text = summaries.map((s) => `${JSON.stringify(s)}\n`).join("");
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(text));
        controller.close();
      },
    });
    const result = await own.aggregateMetrics(stream).catch((error: unknown) => ({ ok: false as const, error }));
    if (result.ok) return result.value;
  }
  // The environment is not here or its hook failed: NeMo Gym's default metrics still describe the job (as the writer does).
  return aggregateMetrics(summaries);
}

/**
 * Finishes a job whose chunks are all sealed: metrics.json (per environment, as the Cloudflare writer writes it), then the
 * completion marker. `force` writes them again even when present (a chunk was sealed again). False when a chunk is unsealed.
 */
export async function finishJob(store: ObjectStore, manifest: Manifest, options: SealOptions, force = false): Promise<boolean> {
  const sealed = await sealedChunks(store, manifest);
  if (sealed.size < manifest.chunks) return false;
  if (!force && (await exists(store, ledgerKeys.completed(manifest.id)))) return true;
  let done = 0;
  let failed = 0;
  const byClass = emptyFailureCounts();
  const summaries = new Map<string, VerifyResult[]>();
  for (let chunk = 0; chunk < manifest.chunks; chunk++) {
    const seal = await readJson(store, ledgerKeys.seal(manifest.id, chunk), Seal);
    if (!seal) return false; // deleted by a resume meanwhile: its chunk will be sealed (and the job finished) again
    done += seal.done;
    failed += seal.failed;
    for (const [name, count] of Object.entries(seal.failed_by_class ?? {})) byClass[countedClass(name)] += count;
    for (const [environment, list] of Object.entries(seal.summaries)) {
      const all = summaries.get(environment) ?? [];
      for (const summary of list) all.push(summary as VerifyResult);
      summaries.set(environment, all);
    }
  }
  const metrics: Record<string, AggregateMetrics> = {};
  for (const [environment, list] of summaries) metrics[environment] = await metricsOf(options, environment, list);
  await store.put(ledgerKeys.metrics(manifest.id), JSON.stringify(metrics), { contentType: "application/json" });
  const completed: Completed = { done, failed, completed_at: Date.now(), failed_by_class: byClass };
  await store.put(ledgerKeys.completed(manifest.id), JSON.stringify(completed), { contentType: "application/json" });
  return true;
}

// A bucket job's manifest (`jobs/<id>/job.json`): its whole configuration, which a Job Durable Object holds on Cloudflare.
import { z } from "zod";
import type { JobConfig } from "../contracts/jobs.js";
import type { ModelChoice } from "../contracts/rpc.js";
import type { ObjectStore } from "../storage/store.js";
import { ledgerKeys } from "./keys.js";

export const BucketJobManifest = z.object({
  id: z.string(),
  owner: z.string().optional(),
  environment: z.string().optional(),
  num_repeats: z.number().int().positive(),
  tasks: z.array(z.number().int().nonnegative()),
  chunk_keys: z.array(z.string()),
  created_at: z.number(),
  skipped_lines: z.array(z.object({ line: z.number(), field: z.string(), message: z.string() })).optional(),
  /** Rows per inputs chunk: a task's chunk is its position among the accepted tasks divided by this. */
  chunk_rows: z.number().int().positive(),
  /** The policy model the job's rollouts call (the job's own choice), as on Cloudflare. */
  model: z.custom<ModelChoice>((value) => typeof value === "object" && value !== null && !Array.isArray(value)).optional(),
}) satisfies z.ZodType<JobConfig>;
export type BucketJobManifest = z.infer<typeof BucketJobManifest>;

/** A manifest with what the write path asks of it on every result, computed once. */
export interface Manifest extends BucketJobManifest {
  total: number;
  chunks: number;
  /** The chunk of a task index, undefined for a task the job does not have. */
  chunkOf(task: number): number | undefined;
  /** The tasks of a chunk, in order. */
  tasksOf(chunk: number): number[];
}

export function manifestOf(config: BucketJobManifest): Manifest {
  const position = new Map(config.tasks.map((task, i) => [task, i]));
  return {
    ...config,
    total: config.tasks.length * config.num_repeats,
    chunks: config.chunk_keys.length,
    chunkOf: (task) => {
      const at = position.get(task);
      return at === undefined ? undefined : Math.floor(at / config.chunk_rows);
    },
    tasksOf: (chunk) => config.tasks.slice(chunk * config.chunk_rows, (chunk + 1) * config.chunk_rows),
  };
}

/** Manifests never change once written: each is read once per store. Only found ones are kept. */
const caches = new WeakMap<ObjectStore, Map<string, Promise<Manifest | null>>>();
const MAX_CACHED = 256;

export function readManifest(store: ObjectStore, jobId: string): Promise<Manifest | null> {
  let cache = caches.get(store);
  if (!cache) caches.set(store, (cache = new Map()));
  let read = cache.get(jobId);
  if (!read) {
    read = (async () => {
      const object = await store.get(ledgerKeys.manifest(jobId));
      if (!object) return null;
      const parsed = BucketJobManifest.safeParse(await object.json());
      // A Cloudflare job's job.json holds only its id and date: its configuration lives in its Durable Object.
      return parsed.success ? manifestOf(parsed.data) : null;
    })();
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
    const mine = cache;
    mine.set(jobId, read);
    read.then(
      (found) => {
        if (!found) mine.delete(jobId);
      },
      () => mine.delete(jobId),
    );
  }
  return read;
}

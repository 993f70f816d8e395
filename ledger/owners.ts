// The owner index in the bucket: which token name (tenant) created which job, for listing a tenant's jobs and checking
// its quotas without reading every job. Both ledgers write it in `create`, before the job's manifest makes it listable.
import pLimit from "p-limit";
import type { JobConfig, JobInfo } from "../contracts/jobs.js";
import { listAll, type ObjectStore } from "../storage/store.js";
import { exists } from "./seal.js";

export const OWNERS_PREFIX = "owners/";

export const ownerKeys = {
  /** `owners/<name>/jobs/<id>`: written once per job, never removed (the listing of a tenant's jobs). */
  jobs: (owner: string) => `${OWNERS_PREFIX}${owner}/jobs/`,
  job: (owner: string, id: string) => `${OWNERS_PREFIX}${owner}/jobs/${id}`,
  /** `owners/<name>/open/<id>`, holding the job's rollouts: the job may be unfinished (removed once it is seen finished). */
  open: (owner: string) => `${OWNERS_PREFIX}${owner}/open/`,
  openJob: (owner: string, id: string) => `${OWNERS_PREFIX}${owner}/open/${id}`,
};

const TEXT = { contentType: "text/plain" };

/**
 * Indexes a job under its owner: the open marker, then the index entry, both before the caller writes the manifest. A write
 * is the same whoever repeats it (a retried create writes the same keys), so the index holds each job exactly once.
 */
export async function indexOwner(store: ObjectStore, config: JobConfig): Promise<void> {
  if (!config.owner) return;
  await markOpen(store, config.owner, config.id, config.tasks.length * config.num_repeats);
  await store.put(ownerKeys.job(config.owner, config.id), "", TEXT);
}

/** Marks a job unfinished again (a resume), with its rollouts: the tenant's quotas count it until it is seen finished. */
export async function markOpen(store: ObjectStore, owner: string, id: string, rollouts: number): Promise<void> {
  await store.put(ownerKeys.openJob(owner, id), String(rollouts), TEXT);
}

/** Whether `owner` created the job `id` (one read of its index entry). */
export function owns(store: ObjectStore, owner: string, id: string): Promise<boolean> {
  return exists(store, ownerKeys.job(owner, id));
}

/** A tenant's job ids, newest first (ids begin with their creation time), after `after` when given. */
export async function ownedIdPage(
  store: ObjectStore,
  owner: string,
  query: { after?: string | undefined; limit: number },
  valid: RegExp,
): Promise<{ ids: string[]; hasMore: boolean }> {
  const prefix = ownerKeys.jobs(owner);
  const ids: string[] = [];
  for await (const page of listAll(store, { prefix })) {
    for (const key of page.keys) {
      const id = key.slice(prefix.length);
      if (valid.test(id)) ids.push(id);
    }
  }
  ids.sort().reverse();
  const start = query.after ? ids.findIndex((id) => id < query.after!) : 0;
  if (start < 0) return { ids: [], hasMore: false };
  return { ids: ids.slice(start, start + query.limit), hasMore: start + query.limit < ids.length };
}

/** What a tenant has unfinished: its jobs still running and their rollouts. */
export interface OpenUse {
  jobs: number;
  rollouts: number;
}

/**
 * A tenant's unfinished jobs and their rollouts, from its open markers: each marker's job is asked its status, and the
 * markers of jobs seen finished (completed, cancelled, gone) are removed, so the next count reads only what may still run.
 */
export async function openUse(store: ObjectStore, owner: string, info: (id: string) => Promise<JobInfo | null>): Promise<OpenUse> {
  const prefix = ownerKeys.open(owner);
  const keys: string[] = [];
  for await (const page of listAll(store, { prefix })) keys.push(...page.keys);
  const use: OpenUse = { jobs: 0, rollouts: 0 };
  const finished: string[] = [];
  const limit = pLimit(16);
  await Promise.all(
    keys.map(async (key) => {
      const job = await limit(() => info(key.slice(prefix.length)));
      if (job?.status === "running") {
        use.jobs++;
        use.rollouts += job.counts.total;
      } else finished.push(key);
    }),
  );
  if (finished.length) await store.delete(finished);
  return use;
}

// GET /v1/jobs/:id/rollouts?follow=true: a job's lines as they land, in the order they were recorded, until it ends.
//
// The Job object writes each batch of fresh results as one object named `<ms>-<random>.jsonl` under the job's results
// folder (a line is in exactly one object): following the job is listing that folder for objects not yet sent, oldest
// name first, and sending each whole. The listing starts a few seconds before the newest object sent (names are only
// ordered to the millisecond), so a round costs what landed lately, not the whole job.
import { jobKeys } from "../../contracts/messages.js";
import type { JobRpc, ResultKind } from "../../contracts/jobs.js";
import type { ObjectStore } from "../../storage/store.js";

/** How far before the newest object sent a listing starts (ms): covers names written in the same millisecond or late. */
const OVERLAP_MS = 5_000;

function stampOf(key: string): number {
  const name = key.slice(key.lastIndexOf("/") + 1);
  const stamp = Number.parseInt(name, 10);
  return Number.isFinite(stamp) ? stamp : 0;
}

export interface FollowOptions {
  /** Wait between listings that found nothing new (ms). */
  pollMs?: number;
}

export function followLines(
  store: ObjectStore,
  stub: Pick<JobRpc, "info">,
  jobId: string,
  kind: ResultKind,
  options: FollowOptions = {},
): ReadableStream<Uint8Array> {
  const pollMs = options.pollMs ?? 500;
  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
  const prefix = jobKeys.results(jobId, kind, "").replace(/\.jsonl$/, "");
  /** Keys sent that are still inside the overlap (older ones are past every future listing). */
  const sent = new Set<string>();
  let newest = 0;
  let finalRound = false;

  /** The objects landed since the last round, oldest first. */
  async function fresh(): Promise<string[]> {
    const startAfter = newest > 0 ? `${prefix}${newest - OVERLAP_MS}` : undefined;
    const keys: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await store.list({ prefix, ...(startAfter ? { startAfter } : {}), ...(cursor ? { cursor } : {}) });
      for (const key of page.keys) if (!sent.has(key)) keys.push(key);
      cursor = page.cursor;
    } while (cursor);
    return keys.sort();
  }

  let queue: string[] = [];
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        const key = queue.shift();
        if (key) {
          sent.add(key);
          newest = Math.max(newest, stampOf(key));
          for (const old of sent) if (stampOf(old) < newest - 2 * OVERLAP_MS) sent.delete(old);
          const object = await store.get(key);
          // A listed object that is gone was never a result (the Job writes before it records): nothing to send.
          if (object) {
            controller.enqueue(await object.bytes());
            return;
          }
          continue;
        }
        if (finalRound) return controller.close();
        // The job's state is read before the listing: once it has ended, every one of its objects is already there.
        const info = await stub.info();
        const ended = info?.status !== "running";
        queue = await fresh();
        if (ended) finalRound = true;
        else if (queue.length === 0) await sleep(pollMs);
      }
    },
  });
}

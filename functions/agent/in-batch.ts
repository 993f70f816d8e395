// The in-batch scheduler: a queue batch runs its own rollouts, BATCH_CONCURRENCY at a time, and holds its invocation until
// the slowest ends. Expanded rollouts go back to the `rollouts` queue as messages. The AWS path's only scheduler, and the
// Worker's when RUNNER_SHARDS is 0.
import pLimit from "p-limit";
import { silentLog } from "../../http/log.js";
import { BatchWatch } from "./batch.js";
import type { ChunkReader } from "./chunks.js";
import type { AgentPorts } from "./ports.js";
import type { QueuedRollout, Scheduler } from "./scheduler.js";
import { settleRollout } from "./settle.js";

type Slot = <T>(run: () => Promise<T>) => Promise<T>;

export function inBatchScheduler(ports: AgentPorts, readChunk: ChunkReader): Scheduler {
  const limit = pLimit(ports.config.BATCH_CONCURRENCY);
  const watch = new BatchWatch();
  // Every message counts as work until it settles or waits: a retry waits only while something else still runs.
  const slot: Slot = async (run) => {
    watch.begin();
    try {
      return await limit(run);
    } finally {
      watch.end();
    }
  };
  return {
    run: async (work) => {
      await Promise.all(work.map((rollout) => settle(ports, rollout, readChunk, slot, watch)));
    },
    take: (_jobId, _model, expand) =>
      slot(async () => {
        const rollouts = await expand();
        await ports.rollouts.sendBatch(rollouts.map((body) => ({ body })));
      }),
  };
}

/** A rollout message to its end: runs, in-batch reruns while the batch is busy anyway, then back to the queue if need be. */
async function settle(ports: AgentPorts, work: QueuedRollout, readChunk: ChunkReader, slot: Slot, watch: BatchWatch): Promise<void> {
  const { message, body, model } = work;
  // Tries on earlier messages (handed back from a batch), then earlier deliveries of this one.
  const base = (body.tries ?? 0) + message.attempts;
  /** Back to the queue after `runs` runs in this delivery; runs the queue did not see travel in a new message's `tries`. */
  const handBack = async (runs: number, delayMs: number): Promise<void> => {
    if (runs <= 1) return message.retry({ delaySeconds: delayMs / 1000 });
    try {
      await ports.rollouts.send({ ...body, tries: base + runs - 1 }, { delaySeconds: Math.ceil(delayMs / 1000) });
      message.ack();
    } catch (error) {
      // The new message could not be sent: the queue's own retry keeps the rollout (its count of runs a little low).
      (ports.log ?? silentLog).warn("a rollout could not be handed back as a new message; the queue retries it", { job_id: body.job_id, error });
      message.retry({ delaySeconds: delayMs / 1000 });
    }
  };
  for (let run = 0; ; run++) {
    const outcome = await slot(() => settleRollout(ports, body, base + run, readChunk, model));
    if (outcome.kind === "done") return message.ack();
    // Its result could not be sent: the rollout ran, so it is not run again here; the queue brings it back.
    if (outcome.unsent) return handBack(run + 1, outcome.delaySeconds * 1000);
    const { inBatch, left } = await watch.wait(outcome.delaySeconds * 1000);
    if (!inBatch) return handBack(run + 1, left);
  }
}

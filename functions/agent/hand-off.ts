// The runners' scheduler: the queue consumer's side of the rollout runners (functions/agent/runner.ts). A batch's rollout
// messages are handed over shard by shard, each acked once its runner has stored it (or retried if the runner did not
// answer); an expand message's rollouts go straight into the runners, with no queue message per rollout.
import pLimit from "p-limit";
import { type RunnerItem, type RunnerRpc, runnerShard } from "../../contracts/runner.js";
import type { AgentPorts } from "./ports.js";
import type { QueuedRollout, Scheduler } from "./scheduler.js";
import { retryDelay } from "./settle.js";

/** Items handed to one runner per call, at most: a call's payload stays small, and each call waits for room on its own. */
const SLICE = 500;

export function runnerScheduler(ports: AgentPorts, runner: (shard: number) => Pick<RunnerRpc, "accept">): Scheduler {
  const shards = Math.max(1, ports.config.RUNNER_SHARDS);
  // Into runners, chunks expand one at a time: each waits for room, so memory holds a chunk's rollouts, not a whole job's.
  const limit = pLimit(1);

  /** Hands the rollouts over; resolves once every message is acked or retried. */
  const run = async (work: QueuedRollout[]): Promise<void> => {
    const byShard = new Map<number, QueuedRollout[]>();
    for (const entry of work) {
      const shard = runnerShard(entry.body, shards);
      byShard.set(shard, [...(byShard.get(shard) ?? []), entry]);
    }
    await Promise.all(
      [...byShard].map(async ([shard, entries]) => {
        const items: RunnerItem[] = entries.map(({ message, body, model }) => ({
          message: body,
          attempts: (body.tries ?? 0) + message.attempts,
          ...(model ? { model } : {}),
        }));
        try {
          await runner(shard).accept(items);
          for (const { message } of entries) message.ack();
        } catch {
          // Not stored: the messages come back, and nothing of theirs has run.
          for (const { message } of entries) message.retry({ delaySeconds: retryDelay(ports, message.attempts) });
        }
      }),
    );
  };

  /**
   * An inputs chunk straight into the runners, in slices, with no queue message per rollout (a rollout message costs the
   * queue a timer and a delivery; 65,536 at once passed workerd's 10,000-timer limit in the local queue). Rows travel
   * inline unless large; those are read from the chunk by the runner. The Job counts the rollouts as started once they are
   * there.
   */
  const take: Scheduler["take"] = async (jobId, model, expand) => {
    const handed = await limit(async () => {
      const byShard: RunnerItem[][] = Array.from({ length: shards }, () => []);
      for (const message of await expand()) byShard[runnerShard(message, shards)]!.push({ message, attempts: 1, ...(model ? { model } : {}) });
      // Shards take their slices side by side; within a shard, in order (each slice waits for room in that runner). Before
      // each slice the Job object is asked again: a job cancelled while its chunks wait for room hands nothing more over.
      let handed = 0;
      await Promise.all(
        byShard.map(async (items, shard) => {
          for (let i = 0; i < items.length; i += SLICE) {
            if ((await ports.job(jobId).wanted()) === null) return;
            const slice = items.slice(i, i + SLICE);
            await runner(shard).accept(slice);
            handed += slice.length;
          }
        }),
      );
      return handed;
    });
    if (handed > 0) await ports.job(jobId).started(handed);
  };

  return { run, take };
}

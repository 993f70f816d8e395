// The queue consumer's side of the rollout runners: a batch's rollout messages are handed over, shard by shard, and each
// message is acked once its runner has stored it (or retried if the runner did not answer).
import type { ExpandMessage, RolloutMessage } from "../../contracts/messages.js";
import type { ModelChoice } from "../../contracts/rpc.js";
import { type RunnerItem, runnerShard } from "../../contracts/runner.js";
import { ENVELOPE_BYTES, fitsInBytes, type ReceivedMessage } from "../../queues/queue.js";
import type { ChunkReader } from "./chunks.js";
import type { AgentPorts } from "./ports.js";
import { retryDelay } from "./settle.js";

export interface HandOver {
  message: ReceivedMessage;
  body: RolloutMessage;
  model?: ModelChoice;
}

/** Hands the rollouts to the runners (`ports.runner` must be set); resolves once every message is acked or retried. */
export async function handOff(ports: AgentPorts, work: HandOver[]): Promise<void> {
  const runner = ports.runner;
  if (!runner) throw new Error("handOff needs the runner port");
  const shards = Math.max(1, ports.config.RUNNER_SHARDS);
  const byShard = new Map<number, HandOver[]>();
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
}

/** Items handed to one runner per call, at most: a call's payload stays small, and each call waits for room on its own. */
const SLICE = 500;

/**
 * An inputs chunk straight into the runners: one item per (row, repeat) still wanted, handed over in slices, with no
 * queue message per rollout (a rollout message costs the queue a timer and a delivery; 65,536 at once passed workerd's
 * 10,000-timer limit in the local queue). Rows travel inline unless large; those are read from the chunk by the runner.
 * Resolves once every item is stored by its runner (the expand message may then be acked); throws if any runner refused.
 */
export async function expandToRunners(
  ports: AgentPorts,
  body: ExpandMessage,
  numRepeats: number,
  readChunk: ChunkReader,
  model?: ModelChoice,
): Promise<number> {
  const runner = ports.runner;
  if (!runner) throw new Error("expandToRunners needs the runner port");
  const chunk = await readChunk(body.chunk_key);
  const wanted = body.only ? new Set(body.only.map(([t, r]) => `${t}:${r}`)) : undefined;
  const shards = Math.max(1, ports.config.RUNNER_SHARDS);
  const byShard: RunnerItem[][] = Array.from({ length: shards }, () => []);
  const room = ports.rollouts.limits.maxMessageBytes - ENVELOPE_BYTES - 512;
  for (const [task, { row, line }] of chunk) {
    const inline = fitsInBytes(line, room);
    for (let repeat = 0; repeat < numRepeats; repeat++) {
      if (wanted && !wanted.has(`${task}:${repeat}`)) continue;
      const message: RolloutMessage = { kind: "rollout", job_id: body.job_id, task_index: task, rollout_index: repeat, attempt: body.attempt };
      byShard[runnerShard(message, shards)]!.push({
        message: inline ? { ...message, row } : { ...message, chunk_key: body.chunk_key },
        attempts: 1,
        ...(model ? { model } : {}),
      });
    }
  }
  // Shards take their slices side by side; within a shard, in order (each slice waits for room in that runner). Before
  // each slice the Job object is asked again: a job cancelled while its chunks wait for room hands nothing more over.
  let handed = 0;
  await Promise.all(
    byShard.map(async (items, shard) => {
      for (let i = 0; i < items.length; i += SLICE) {
        if ((await ports.job(body.job_id).wanted()) === null) return;
        const slice = items.slice(i, i + SLICE);
        await runner(shard).accept(slice);
        handed += slice.length;
      }
    }),
  );
  return handed;
}

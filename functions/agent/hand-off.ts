// The queue consumer's side of the rollout runners: a batch's rollout messages are handed over, shard by shard, and each
// message is acked once its runner has stored it (or retried if the runner did not answer).
import type { RolloutMessage } from "../../contracts/messages.js";
import type { ModelChoice } from "../../contracts/rpc.js";
import { type RunnerItem, runnerShard } from "../../contracts/runner.js";
import type { ReceivedMessage } from "../../queues/queue.js";
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
      const items: RunnerItem[] = entries.map(({ message, body, model }) => ({ message: body, attempts: message.attempts, ...(model ? { model } : {}) }));
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

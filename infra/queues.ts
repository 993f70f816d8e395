// Queues: `rollouts` (work) and `results` (scored rollouts, failures), each with a dead-letter queue, and their consumers.
import { QUEUES } from "../contracts/names.js";
import type { WorkerSpec } from "./topology.js";

export type QueueSet = Record<string, sst.cloudflare.Queue>;

/** One Cloudflare Queue per name the topology uses; component names are stable, queue names are SST's per stage. */
export function createQueues(): QueueSet {
  return {
    [QUEUES.rollouts]: new sst.cloudflare.Queue("Rollouts"),
    [QUEUES.rolloutsDlq]: new sst.cloudflare.Queue("RolloutsDlq"),
    [QUEUES.results]: new sst.cloudflare.Queue("Results"),
    [QUEUES.resultsDlq]: new sst.cloudflare.Queue("ResultsDlq"),
  };
}

export function queueName(queues: QueueSet, name: string): $util.Output<string> {
  const queue = queues[name];
  if (!queue) throw new Error(`the topology names a queue "${name}" that infra/queues.ts does not create`);
  return queue.nodes.queue.queueName;
}

/** A consumer per (Worker, queue) the topology lists, with its batch, retry and dead-letter settings. */
export function createConsumers(specs: WorkerSpec[], scripts: Map<string, $util.Output<string>>, queues: QueueSet): cloudflare.QueueConsumer[] {
  const consumers: cloudflare.QueueConsumer[] = [];
  for (const spec of specs) {
    for (const [name, settings] of Object.entries(spec.queueConsumers ?? {})) {
      const queue = queues[name];
      if (!queue) throw new Error(`${spec.name} consumes "${name}", which infra/queues.ts does not create`);
      consumers.push(
        new cloudflare.QueueConsumer(`${spec.name}-${name}-consumer`, {
          accountId: sst.cloudflare.DEFAULT_ACCOUNT_ID,
          queueId: queue.id,
          scriptName: scripts.get(spec.name)!,
          type: "worker",
          ...(settings.deadLetterQueue ? { deadLetterQueue: queueName(queues, settings.deadLetterQueue) } : {}),
          settings: {
            batchSize: settings.maxBatchSize,
            maxRetries: settings.maxRetries,
            // Cloudflare wants at least a second of window for batches over 10.
            maxWaitTimeMs: Math.max(1000, Math.round(settings.maxBatchTimeout * 1000)),
          },
        }),
      );
    }
  }
  return consumers;
}

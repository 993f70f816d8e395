// The Job object's re-enqueue (a resume, a heal): a job's missing rollouts as expand messages, each within the queue's limit.
import type { JobConfig } from "../../contracts/jobs.js";
import type { WorkMessage } from "../../contracts/messages.js";
import { expandMessages } from "../../ledger/expand.js";
import { ENVELOPE_BYTES, type MessageQueue } from "../../queues/queue.js";

/** Sends expand messages for the (task, repeat) pairs as the job's `attempt`; however many, each message fits the queue. */
export async function enqueueMissing(rollouts: MessageQueue<WorkMessage>, config: JobConfig, missing: [number, number][], attempt: number): Promise<number> {
  const messages = expandMessages(config, missing, attempt, rollouts.limits.maxMessageBytes - ENVELOPE_BYTES);
  await rollouts.sendBatch(messages.map((body) => ({ body })));
  return messages.length;
}

// The agent's `results` port on the bucket path: no queue and no writer between the agent and the bucket. A "sent" result
// is recorded at once, in its own object, by the agent that produced it.
import type { MessageQueue, QueueLimits } from "../queues/queue.js";
import type { BucketJobs } from "./bucket-jobs.js";

/**
 * An object may be far larger than a queue message: a record with token ids stays inline (the bucket pointer of a too-large
 * result is still understood). 64 MiB keeps a record well inside a Lambda's memory.
 */
export const BUCKET_RESULT_LIMITS: QueueLimits = { maxMessageBytes: 64 * 1024 * 1024, maxBatchBytes: 64 * 1024 * 1024, maxBatchMessages: 100 };

export function bucketResults(jobs: BucketJobs): MessageQueue<string> {
  return {
    limits: BUCKET_RESULT_LIMITS,
    async send(text) {
      await jobs.record(text);
    },
    async sendBatch(messages) {
      await Promise.all(messages.map((message) => jobs.record(message.body)));
    },
  };
}

// Cloudflare Queues behind the MessageQueue interface.
import { batches, type MessageQueue, type QueueLimits } from "./queue.js";

/** Cloudflare's published limits: 128 KB a message, 256 KB and 100 messages a batch (kept a little clear of each). */
export const CLOUDFLARE_LIMITS: QueueLimits = { maxMessageBytes: 126_000, maxBatchBytes: 250_000, maxBatchMessages: 100 };

export function cloudflareQueue<T>(binding: Queue<T>, limits: QueueLimits = CLOUDFLARE_LIMITS): MessageQueue<T> {
  return {
    limits,
    async send(body, options) {
      await binding.send(body, { contentType: "json", ...(options?.delaySeconds ? { delaySeconds: options.delaySeconds } : {}) });
    },
    async sendBatch(messages) {
      for (const batch of batches(messages, limits)) {
        await binding.sendBatch(
          batch.map((m) => ({ body: m.body, contentType: "json" as const, ...(m.delaySeconds ? { delaySeconds: m.delaySeconds } : {}) })),
        );
      }
    },
  };
}

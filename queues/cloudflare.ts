// Cloudflare Queues behind the MessageQueue interface.
import { batches, type MessageQueue, MessageTooLargeError, messageBytes, type QueueLimits } from "./queue.js";

/** Cloudflare's published limits: 128 KB a message, 256 KB and 100 messages a batch (kept a little clear of each). */
export const CLOUDFLARE_LIMITS: QueueLimits = { maxMessageBytes: 126_000, maxBatchBytes: 250_000, maxBatchMessages: 100 };

/** A text body travels as text (a result's JSONL line is never escaped into JSON again), anything else as JSON. */
function contentType(body: unknown): QueueContentType {
  return typeof body === "string" ? "text" : "json";
}

export function cloudflareQueue<T>(binding: Queue<T>, limits: QueueLimits = CLOUDFLARE_LIMITS): MessageQueue<T> {
  return {
    limits,
    async send(body, options) {
      const size = messageBytes(body);
      if (size > limits.maxMessageBytes) throw new MessageTooLargeError(size, limits.maxMessageBytes);
      await binding.send(body, { contentType: contentType(body), ...(options?.delaySeconds ? { delaySeconds: options.delaySeconds } : {}) });
    },
    async sendBatch(messages) {
      for (const batch of batches(messages, limits)) {
        await binding.sendBatch(
          batch.map((m) => ({ body: m.body, contentType: contentType(m.body), ...(m.delaySeconds ? { delaySeconds: m.delaySeconds } : {}) })),
        );
      }
    },
  };
}

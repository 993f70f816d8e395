// The queue interface the agent and gateway send through, and its Cloudflare Queues implementation.
import { MAX_BATCH_BYTES, MAX_BATCH_MESSAGES } from "./messages.js";

export interface OutgoingMessage<T> {
  body: T;
  delaySeconds?: number;
}

/** What edgegym needs of a queue; Cloudflare Queues and Amazon SQS both fit behind it. */
export interface MessageQueue<T> {
  send(body: T, options?: { delaySeconds?: number }): Promise<void>;
  sendBatch(messages: OutgoingMessage<T>[]): Promise<void>;
}

/** Splits messages into batches within the queue's count and byte limits. */
export function batches<T>(messages: OutgoingMessage<T>[], maxCount = MAX_BATCH_MESSAGES, maxBytes = MAX_BATCH_BYTES): OutgoingMessage<T>[][] {
  const out: OutgoingMessage<T>[][] = [];
  let current: OutgoingMessage<T>[] = [];
  let bytes = 0;
  for (const message of messages) {
    const size = JSON.stringify(message.body).length + 64;
    if (current.length > 0 && (current.length >= maxCount || bytes + size > maxBytes)) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(message);
    bytes += size;
  }
  if (current.length) out.push(current);
  return out;
}

export function cloudflareQueue<T>(binding: Queue<T>): MessageQueue<T> {
  return {
    async send(body, options) {
      await binding.send(body, { contentType: "json", ...options });
    },
    async sendBatch(messages) {
      for (const batch of batches(messages)) {
        await binding.sendBatch(
          batch.map((m) => ({ body: m.body, contentType: "json" as const, ...(m.delaySeconds ? { delaySeconds: m.delaySeconds } : {}) })),
        );
      }
    },
  };
}

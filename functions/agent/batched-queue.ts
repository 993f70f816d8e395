// A queue whose sends within a few milliseconds go out together: one sendBatch (one request to the queue) per flush
// instead of one per message. Each send still resolves only once its batch is sent, so a caller acks nothing early.
import type { MessageQueue, OutgoingMessage } from "../../queues/queue.js";

interface Waiting<T> {
  message: OutgoingMessage<T>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export function batchedQueue<T>(inner: MessageQueue<T>, flushMs = 5): MessageQueue<T> {
  let waiting: Waiting<T>[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;

  const flush = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    const batch = waiting;
    waiting = [];
    if (batch.length === 0) return;
    inner.sendBatch(batch.map((w) => w.message)).then(
      () => {
        for (const w of batch) w.resolve();
      },
      (error: unknown) => {
        for (const w of batch) w.reject(error);
      },
    );
  };

  return {
    limits: inner.limits,
    send(body, options) {
      return new Promise<void>((resolve, reject) => {
        waiting.push({ message: { body, ...(options?.delaySeconds ? { delaySeconds: options.delaySeconds } : {}) }, resolve, reject });
        if (waiting.length >= inner.limits.maxBatchMessages) flush();
        else timer ??= setTimeout(flush, flushMs);
      });
    },
    sendBatch: (messages) => inner.sendBatch(messages),
  };
}

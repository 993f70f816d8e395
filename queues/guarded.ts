// A MessageQueue whose sends are bounded in time, and (for the chaos suite only) fail at a given rate.
import { within } from "../contracts/rpc.js";
import { TIMEOUTS } from "../contracts/timeouts.js";
import type { MessageQueue } from "./queue.js";

export interface QueueGuards {
  timeoutMs?: number;
  /** Share of sends that fail before sending (0–1): a test variable, never set in a deployment. */
  sendFailureRate?: number;
  random?: () => number;
}

/** A send the chaos suite made fail on purpose. */
export class InjectedSendFault extends Error {
  override readonly name = "InjectedSendFault";
}

export function guardedQueue<T>(queue: MessageQueue<T>, guards: QueueGuards = {}): MessageQueue<T> {
  const ms = guards.timeoutMs ?? TIMEOUTS.queueMs;
  const rate = guards.sendFailureRate ?? 0;
  const random = guards.random ?? Math.random;
  const inject = () => {
    if (rate > 0 && random() < rate) throw new InjectedSendFault("injected fault: the queue refused a send");
  };
  return {
    limits: queue.limits,
    async send(body, options) {
      inject();
      return within(queue.send(body, options), AbortSignal.timeout(ms), "the queue (send)");
    },
    async sendBatch(messages) {
      inject();
      // A batch may take several backend calls: its bound grows with them.
      const calls = Math.max(1, Math.ceil(messages.length / queue.limits.maxBatchMessages));
      return within(queue.sendBatch(messages), AbortSignal.timeout(ms * calls), "the queue (send batch)");
    },
  };
}

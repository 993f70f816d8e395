// A MessageQueue whose sends are bounded in time, and (for the chaos suite only) fail at a given rate.
import { within } from "../contracts/rpc.js";
import { faultInjector } from "./faults.js";
import { TIMEOUTS } from "../contracts/timeouts.js";
import type { MessageQueue } from "./queue.js";

export interface QueueGuards {
  timeoutMs?: number;
  /** Share of sends that fail before sending (0–1): a test variable, never set in a deployment. */
  sendFailureRate?: number;
  random?: () => number;
}

export function guardedQueue<T>(queue: MessageQueue<T>, guards: QueueGuards = {}): MessageQueue<T> {
  const ms = guards.timeoutMs ?? TIMEOUTS.queueMs;
  const inject = faultInjector(guards.sendFailureRate, guards.random);
  return {
    limits: queue.limits,
    async send(body, options) {
      inject("the queue refused a send");
      return within(queue.send(body, options), AbortSignal.timeout(ms), "the queue (send)");
    },
    async sendBatch(messages) {
      inject("the queue refused a send");
      // A batch may take several backend calls: its bound grows with them.
      const calls = Math.max(1, Math.ceil(messages.length / queue.limits.maxBatchMessages));
      return within(queue.sendBatch(messages), AbortSignal.timeout(ms * calls), "the queue (send batch)");
    },
  };
}

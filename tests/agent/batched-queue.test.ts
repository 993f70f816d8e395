// Results leave the rollout runner in batches: one request per flush, each send resolved only once its batch is sent.
import { describe, expect, it } from "vitest";
import { batchedQueue } from "../../functions/agent/batched-queue.js";
import type { MessageQueue, OutgoingMessage } from "../../queues/queue.js";

function countingQueue(fail = false): MessageQueue<string> & { batches: OutgoingMessage<string>[][] } {
  const batches: OutgoingMessage<string>[][] = [];
  return {
    batches,
    limits: { maxMessageBytes: 1000, maxBatchBytes: 10_000, maxBatchMessages: 3 },
    send: async () => {
      throw new Error("the batched queue sends in batches only");
    },
    sendBatch: async (messages) => {
      if (fail) throw new Error("queue unavailable");
      batches.push(messages);
    },
  };
}

describe("a batched queue", () => {
  it("sends messages given together as one batch, and a full batch at once", async () => {
    const inner = countingQueue();
    const queue = batchedQueue(inner, 20);
    await Promise.all(["a", "b"].map((body) => queue.send(body)));
    expect(inner.batches.map((b) => b.map((m) => m.body))).toEqual([["a", "b"]]);
    await Promise.all(["c", "d", "e", "f"].map((body) => queue.send(body, { delaySeconds: 2 })));
    expect(inner.batches.slice(1).map((b) => b.map((m) => m.body))).toEqual([["c", "d", "e"], ["f"]]);
    expect(inner.batches[1]![0]).toEqual({ body: "c", delaySeconds: 2 });
  });

  it("rejects every send of a batch the queue refused, so no caller takes it as delivered", async () => {
    const queue = batchedQueue(countingQueue(true), 5);
    const outcomes = await Promise.allSettled([queue.send("a"), queue.send("b")]);
    expect(outcomes.map((o) => o.status)).toEqual(["rejected", "rejected"]);
  });
});

// The polling consumer against fauxqs: every message handled once, slow handlers kept hidden, redrive, and a stop that loses nothing.
import { GetQueueAttributesCommand, ReceiveMessageCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReceivedBatch } from "../../queues/queue.js";
import { createQueueWithDlq, sqsQueue } from "../../queues/sqs.js";
import { type PollEvent, type PollQueueOptions, pollQueue } from "../../queues/sqs-poller.js";
import { countCommands, type LocalAws, sleep, startLocalAws, unique } from "./fauxqs.js";

let aws: LocalAws;
beforeAll(async () => {
  aws = await startLocalAws();
});
afterAll(async () => {
  await aws?.stop();
});

type Body = { n: number };

async function queueWith(count: number): Promise<string> {
  const { queueUrl } = aws.server.createQueue(unique("poll"));
  await sqsQueue<Body>(aws.sqs, queueUrl).sendBatch(Array.from({ length: count }, (_, n) => ({ body: { n } })));
  return queueUrl;
}

async function attributes(queueUrl: string): Promise<{ visible: number; hidden: number }> {
  const { Attributes = {} } = await aws.sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ["All"] }));
  return { visible: Number(Attributes.ApproximateNumberOfMessages), hidden: Number(Attributes.ApproximateNumberOfMessagesNotVisible) };
}

// Short long-polls keep the tests quick: stopping waits for a receive in progress (see `waitTimeSeconds`).
function poll(options: Omit<PollQueueOptions<Body>, "client" | "waitTimeSeconds"> & { client?: SQSClient }) {
  const errors: PollEvent[] = [];
  const done = pollQueue<Body>({
    client: aws.sqs,
    waitTimeSeconds: 1,
    ...options,
    onProgress: (event) => {
      if (event.type === "error") errors.push(event);
    },
  });
  return { done, errors };
}

describe("pollQueue", () => {
  it("with concurrency 4 handles every message once, never more than 4 at a time, and deletes them all", async () => {
    const queueUrl = await queueWith(40);
    const { sqs } = aws.clients();
    const commands = countCommands(sqs);
    const handled: number[] = [];
    let now = 0;
    let most = 0;
    const stop = new AbortController();
    const { done, errors } = poll({
      client: sqs,
      queueUrl,
      concurrency: 4,
      visibilityTimeout: 30,
      signal: stop.signal,
      handle: async (batch) => {
        await Promise.all(
          batch.messages.map(async (message) => {
            most = Math.max(most, ++now);
            await sleep(10);
            handled.push(message.body.n);
            now--;
            message.ack();
          }),
        );
        if (handled.length === 40) stop.abort();
      },
    });
    const summary = await done;
    expect(handled.sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, n) => n));
    expect(most).toBeLessThanOrEqual(4);
    expect(most).toBeGreaterThan(1);
    expect(summary).toEqual({ received: 40, acked: 40, retried: 0, released: 0 });
    expect(errors).toEqual([]);
    expect(await attributes(queueUrl)).toEqual({ visible: 0, hidden: 0 });
    // Acks of messages finishing together go in one DeleteMessageBatch.
    expect(commands.get("DeleteMessageBatchCommand")).toBeLessThan(40);
  });

  it("fauxqs hands a message out again once its visibility runs out (what the heartbeat prevents)", async () => {
    const queueUrl = await queueWith(1);
    const receive = () => aws.sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, VisibilityTimeout: 2, WaitTimeSeconds: 5 }));
    const first = await receive();
    const second = await receive();
    expect(second.Messages?.[0]?.MessageId).toBe(first.Messages?.[0]?.MessageId);
  });

  it("a handler slower than the visibility timeout (5 s against 2 s) has its message processed once, never given to a second poller", async () => {
    const queueUrl = await queueWith(3);
    const handled: { poller: string; n: number }[] = [];
    const stop = new AbortController();
    const slow = (poller: string) => async (batch: ReceivedBatch<Body>) => {
      await sleep(5_000);
      for (const message of batch.messages) handled.push({ poller, n: message.body.n });
    };
    const a = poll({ queueUrl, concurrency: 2, visibilityTimeout: 2, signal: stop.signal, handle: slow("a") });
    const b = poll({ queueUrl, concurrency: 2, visibilityTimeout: 2, signal: stop.signal, handle: slow("b") });
    while (handled.length < 3) await sleep(100);
    await sleep(2_500); // longer than a visibility timeout: a message that was not kept hidden would be handed out again
    stop.abort();
    const [summaryA, summaryB] = await Promise.all([a.done, b.done]);
    expect(handled.map((h) => h.n).sort()).toEqual([0, 1, 2]);
    expect(summaryA.received + summaryB.received).toBe(3);
    expect([...a.errors, ...b.errors]).toEqual([]);
    expect(await attributes(queueUrl)).toEqual({ visible: 0, hidden: 0 });
  });

  it("a message retried past maxReceiveCount lands in the dead-letter queue (SQS's own redrive)", async () => {
    const { queueUrl, dlqUrl } = await createQueueWithDlq(aws.sqs, unique("redrive"), 2);
    await sqsQueue<Body>(aws.sqs, queueUrl).send({ n: 7 });
    const attempts: number[] = [];
    const stop = new AbortController();
    const { done } = poll({
      queueUrl,
      concurrency: 1,
      visibilityTimeout: 30,
      signal: stop.signal,
      handle: async (batch) => {
        for (const message of batch.messages) {
          attempts.push(message.attempts);
          message.retry();
        }
      },
    });
    const dead = await aws.sqs.send(new ReceiveMessageCommand({ QueueUrl: dlqUrl, WaitTimeSeconds: 10 }));
    stop.abort();
    await done;
    expect(attempts).toEqual([1, 2]);
    expect(JSON.parse(dead.Messages?.[0]?.Body ?? "null")).toEqual({ n: 7 });
    expect(await attributes(queueUrl)).toEqual({ visible: 0, hidden: 0 });
  });

  it("stopping mid-batch loses nothing: every message ends handled or back on the queue at once", async () => {
    const queueUrl = await queueWith(12);
    const acked = new Set<number>();
    const stop = new AbortController();
    const { done, errors } = poll({
      queueUrl,
      concurrency: 4,
      visibilityTimeout: 60, // a message not handed back would stay hidden for the rest of the test
      graceSeconds: 0.5,
      signal: stop.signal,
      handle: async (batch, { signal }) => {
        await Promise.all(
          batch.messages.map(async (message) => {
            if (message.body.n % 3 === 0) {
              // Stuck until its message is released; returning then must not ack it.
              await new Promise((resolve) => signal.addEventListener("abort", resolve));
              return;
            }
            await sleep(20);
            acked.add(message.body.n);
            message.ack();
            if (acked.size === 3) stop.abort();
          }),
        );
      },
    });
    const summary = await done;
    expect(summary.released).toBeGreaterThan(0);
    expect(summary.acked).toBe(acked.size);
    const back = await attributes(queueUrl);
    expect(back.hidden).toBe(0);
    const onQueue: number[] = [];
    for (let more = true; more; ) {
      const { Messages = [] } = await aws.sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, VisibilityTimeout: 60 }));
      onQueue.push(...Messages.map((m) => (JSON.parse(m.Body!) as Body).n));
      more = Messages.length > 0;
    }
    expect(onQueue.length).toBe(back.visible);
    expect([...acked, ...onQueue].sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, n) => n));
    expect(errors).toEqual([]);
  });

  it("gives up at once on a queue that does not exist", async () => {
    const { done } = poll({ queueUrl: `${aws.endpoint}/000000000000/${unique("missing")}`, concurrency: 1, visibilityTimeout: 5, handle: async () => {} });
    await expect(done).rejects.toThrow(/does not exist/i);
  });
});

// A long-polling SQS consumer for any machine: bounded concurrency, a visibility heartbeat, and a stop that loses nothing.
import { type Message, ReceiveMessageCommand, type SQSClient, SQSServiceException } from "@aws-sdk/client-sqs";
import type { ReceivedBatch } from "./queue.js";
import { sqsQueueName } from "./sqs.js";
import { changeVisibility, deleteMessages, type Outcome, parseBody, receivedMessage } from "./sqs-consumer.js";

export type PollEvent =
  | { type: "received" | "acked" | "retried" | "released"; ids: string[] }
  | { type: "error"; stage: "receive" | "handler" | "heartbeat" | "delete" | "visibility"; error: unknown; ids?: string[] }
  | { type: "stopping" };

export interface PollSummary {
  received: number;
  acked: number;
  retried: number;
  /** Handed back to the queue at once on stop, their handlers unfinished after the grace period. */
  released: number;
}

export interface PollQueueOptions<T> {
  client: SQSClient;
  queueUrl: string;
  /** Messages in flight at most: received and not yet acked, retried or released. */
  concurrency: number;
  /** Seconds a received message stays hidden from other consumers; renewed every half of it while its handler runs. */
  visibilityTimeout: number;
  /** Runs each received batch (up to 10 messages); the same contract as a Cloudflare queue handler: undecided messages are acked when it returns, retried when it throws. `signal` fires if its messages are released on stop. */
  handle: (batch: ReceivedBatch<T>, context: { signal: AbortSignal }) => Promise<void>;
  /** Stops the poller: no more receives, handlers get `graceSeconds`, then what is unfinished goes back to the queue. */
  signal?: AbortSignal;
  onProgress?: (event: PollEvent) => void;
  /** Default 30. */
  graceSeconds?: number;
  /**
   * Long-poll wait, default 20 (SQS's longest). A receive in progress is never cut off (SQS may already have handed it
   * messages, which would then stay hidden for a visibility timeout), so stopping an idle poller takes up to this long.
   */
  waitTimeSeconds?: number;
}

interface Entry {
  id: string;
  receiptHandle: string;
  controller: AbortController;
}

/** A sleep that can be cut short, so no stray timer keeps the process alive after the poller returns. */
function pause(ms: number, until: Promise<void>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, ms)))), until]).finally(() => clearTimeout(timer));
}

/** An error that asking again will not fix (no such queue, no permission); throttling and server faults are asked again. */
function fatal(error: unknown): boolean {
  return error instanceof SQSServiceException && error.$fault === "client" && error.$metadata.httpStatusCode !== 429 && !/throttl/i.test(error.name);
}

export async function pollQueue<T = unknown>(options: PollQueueOptions<T>): Promise<PollSummary> {
  const { client, queueUrl, concurrency, visibilityTimeout } = options;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError(`concurrency must be a whole number of at least 1, not ${concurrency}`);
  // SQS takes whole seconds; below 2 the heartbeat (every half of it) would have to beat faster than once a second.
  if (!Number.isInteger(visibilityTimeout) || visibilityTimeout < 2 || visibilityTimeout > 43_200)
    throw new RangeError(`visibilityTimeout must be whole seconds from 2 to 43,200, not ${visibilityTimeout}`);
  const emit = options.onProgress ?? (() => {});
  const queue = sqsQueueName(queueUrl);
  const summary: PollSummary = { received: 0, acked: 0, retried: 0, released: 0 };
  const handling = new Map<string, Entry>(); // by receipt handle: received, not yet decided
  const running = new Set<Promise<void>>(); // batch handlers still running
  let pendingDeletes: Entry[] = [];
  let pendingVisibility: { entry: Entry; seconds: number }[] = [];
  let flushTimer: ReturnType<typeof setTimeout> | undefined;
  const flushes = new Set<Promise<void>>();
  let wake = () => {};
  let stopping = false;
  let beating = Promise.resolve();

  async function flush(): Promise<void> {
    flushTimer = undefined;
    const deletes = pendingDeletes;
    const visibility = pendingVisibility;
    pendingDeletes = [];
    pendingVisibility = [];
    if (deletes.length) {
      try {
        const refused = await deleteMessages(
          client,
          queueUrl,
          deletes.map((e) => e.receiptHandle),
        );
        if (refused.length) emit({ type: "error", stage: "delete", error: new Error("SQS refused to delete"), ids: idsOf(deletes, refused) });
      } catch (error) {
        emit({ type: "error", stage: "delete", error, ids: deletes.map((e) => e.id) });
      }
    }
    if (visibility.length) {
      // A renewal still on its way must land first, or it would hide again a message just handed back.
      await beating;
      try {
        const refused = await changeVisibility(
          client,
          queueUrl,
          visibility.map(({ entry, seconds }) => ({ receiptHandle: entry.receiptHandle, seconds })),
        );
        if (refused.length)
          emit({
            type: "error",
            stage: "visibility",
            error: new Error("SQS refused a visibility change"),
            ids: idsOf(
              visibility.map((v) => v.entry),
              refused,
            ),
          });
      } catch (error) {
        emit({ type: "error", stage: "visibility", error, ids: visibility.map((v) => v.entry.id) });
      }
    }
  }
  const idsOf = (entries: Entry[], handles: string[]) => entries.filter((e) => handles.includes(e.receiptHandle)).map((e) => e.id);

  function scheduleFlush(): void {
    const now = pendingDeletes.length + pendingVisibility.length >= 10;
    if (flushTimer && !now) return;
    clearTimeout(flushTimer);
    // A few milliseconds gather the acks of handlers finishing together into one DeleteMessageBatch.
    flushTimer = setTimeout(
      () => {
        const done = flush().finally(() => flushes.delete(done));
        flushes.add(done);
      },
      now ? 0 : 5,
    );
  }

  function decide(entry: Entry, outcome: Outcome | { kind: "release" }): void {
    if (!handling.delete(entry.receiptHandle)) return; // decided already, or released
    if (outcome.kind === "ack") {
      pendingDeletes.push(entry);
      summary.acked++;
      emit({ type: "acked", ids: [entry.id] });
    } else {
      pendingVisibility.push({ entry, seconds: outcome.kind === "retry" ? outcome.delaySeconds : 0 });
      if (outcome.kind === "retry") summary.retried++;
      else summary.released++;
      emit({ type: outcome.kind === "retry" ? "retried" : "released", ids: [entry.id] });
    }
    scheduleFlush();
    wake();
  }

  function start(messages: Message[]): void {
    const controller = new AbortController();
    const entries = messages.map((m) => ({ id: m.MessageId!, receiptHandle: m.ReceiptHandle!, controller }));
    for (const entry of entries) handling.set(entry.receiptHandle, entry);
    summary.received += entries.length;
    emit({ type: "received", ids: entries.map((e) => e.id) });
    // Received while stopping: not run; handed back below with the other unfinished ones.
    if (stopping) return;
    const batch: ReceivedBatch<T> = {
      queue,
      messages: messages.map((m, i) =>
        receivedMessage<T>(m.MessageId!, parseBody(m.Body ?? "") as T, Number(m.Attributes?.ApproximateReceiveCount ?? 1), (o) => decide(entries[i]!, o)),
      ),
    };
    const run = (async () => {
      try {
        await options.handle(batch, { signal: controller.signal });
        for (const entry of entries) decide(entry, { kind: "ack" });
      } catch (error) {
        emit({ type: "error", stage: "handler", error, ids: entries.map((e) => e.id) });
        for (const entry of entries) decide(entry, { kind: "retry", delaySeconds: 0 });
      }
    })();
    running.add(run);
    void run.finally(() => {
      running.delete(run);
      wake();
    });
  }

  // Renew every message still being handled before its visibility runs out, so no second consumer is handed it.
  const heartbeat = setInterval(
    () => {
      beating = beat();
    },
    (visibilityTimeout * 1000) / 2,
  );
  async function beat(): Promise<void> {
    const entries = [...handling.values()];
    if (!entries.length) return;
    try {
      const refused = await changeVisibility(
        client,
        queueUrl,
        entries.map((e) => ({ receiptHandle: e.receiptHandle, seconds: visibilityTimeout })),
      );
      const lost = idsOf(
        entries,
        refused.filter((handle) => handling.has(handle)),
      );
      if (lost.length) emit({ type: "error", stage: "heartbeat", error: new Error("SQS refused to extend visibility"), ids: lost });
    } catch (error) {
      emit({ type: "error", stage: "heartbeat", error, ids: entries.map((e) => e.id) });
    }
  }

  const waitForChange = () => new Promise<void>((resolve) => (wake = resolve));
  const onAbort = () => {
    stopping = true;
    emit({ type: "stopping" });
    wake();
  };
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener("abort", onAbort, { once: true });

  let failure: unknown;
  try {
    let backoff = 0;
    while (!stopping) {
      if (handling.size >= concurrency) {
        await waitForChange();
        continue;
      }
      let messages: Message[];
      try {
        const response = await client.send(
          new ReceiveMessageCommand({
            QueueUrl: queueUrl,
            MaxNumberOfMessages: Math.min(10, concurrency - handling.size),
            WaitTimeSeconds: options.waitTimeSeconds ?? 20,
            VisibilityTimeout: visibilityTimeout,
            MessageSystemAttributeNames: ["ApproximateReceiveCount"],
            MessageAttributeNames: ["All"],
          }),
        );
        messages = response.Messages ?? [];
        backoff = 0;
      } catch (error) {
        if (fatal(error)) {
          failure = error;
          break;
        }
        emit({ type: "error", stage: "receive", error });
        backoff = Math.min(20_000, Math.max(250, backoff * 2));
        await pause(backoff, waitForChange());
        continue;
      }
      if (messages.length) start(messages);
    }
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
    stopping = true;
    // Grace: running handlers may finish (the heartbeat keeps their messages hidden meanwhile).
    const deadline = Date.now() + (options.graceSeconds ?? 30) * 1000;
    while (running.size && Date.now() < deadline) await pause(deadline - Date.now(), waitForChange());
    clearInterval(heartbeat);
    for (const entry of [...handling.values()]) {
      decide(entry, { kind: "release" });
      entry.controller.abort();
    }
    clearTimeout(flushTimer);
    await Promise.all([...flushes, flush()]);
  }
  if (failure) throw failure;
  return summary;
}

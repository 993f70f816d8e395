// Consuming SQS: delivered messages as ReceivedMessages, and the Lambda adapter with its partial batch response.
import { ChangeMessageVisibilityBatchCommand, DeleteMessageBatchCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { z } from "zod";
import type { ReceivedBatch, ReceivedMessage } from "./queue.js";
import { sqsQueueName } from "./sqs.js";

/** The longest SQS hides a message (12 hours): a retry delay beyond it is capped. */
export const SQS_MAX_VISIBILITY_SECONDS = 43_200;

/** One record of a Lambda SQS event (the fields read here; Lambda sends more). */
export const SqsEventRecord = z.object({
  messageId: z.string(),
  receiptHandle: z.string(),
  body: z.string(),
  attributes: z.looseObject({ ApproximateReceiveCount: z.string() }),
  messageAttributes: z.record(z.string(), z.looseObject({ dataType: z.string(), stringValue: z.string().optional() })).optional(),
  eventSource: z.literal("aws:sqs").optional(),
  eventSourceARN: z.string(),
  awsRegion: z.string().optional(),
});
export type SqsEventRecord = z.infer<typeof SqsEventRecord>;

export const SqsEvent = z.object({ Records: z.array(SqsEventRecord) });
export type SqsEvent = z.infer<typeof SqsEvent>;

/** Lambda's partial batch response (the event source mapping needs `FunctionResponseTypes: ["ReportBatchItemFailures"]`). */
export interface SqsBatchResponse {
  batchItemFailures: { itemIdentifier: string }[];
}

export type Outcome = { kind: "ack" } | { kind: "retry"; delaySeconds: number };

/** A body as sent by `sqsQueue` (JSON); anything else is handed over as the raw string for the handler's schema to refuse. */
export function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // Not ours: the raw text goes on, and the handler's schema refuses it (the doc above).
    return text;
  }
}

export function visibilitySeconds(delaySeconds: number | undefined): number {
  return Math.min(SQS_MAX_VISIBILITY_SECONDS, Math.max(0, Math.ceil(delaySeconds ?? 0)));
}

/** A ReceivedMessage whose first ack() or retry() is its outcome; later calls are ignored. */
export function receivedMessage<T>(id: string, body: T, attempts: number, decide: (outcome: Outcome) => void): ReceivedMessage<T> {
  return {
    id,
    body,
    attempts,
    ack: () => decide({ kind: "ack" }),
    retry: (options) => decide({ kind: "retry", delaySeconds: visibilitySeconds(options?.delaySeconds) }),
  };
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size));
  return out;
}

/** Sets each message's visibility (10 a request); returns the receipt handles SQS refused. */
export async function changeVisibility(client: SQSClient, queueUrl: string, entries: { receiptHandle: string; seconds: number }[]): Promise<string[]> {
  const refused: string[] = [];
  for (const chunk of chunks(entries, 10)) {
    const result = await client.send(
      new ChangeMessageVisibilityBatchCommand({
        QueueUrl: queueUrl,
        Entries: chunk.map((entry, i) => ({ Id: String(i), ReceiptHandle: entry.receiptHandle, VisibilityTimeout: entry.seconds })),
      }),
    );
    for (const failed of result.Failed ?? []) refused.push(chunk[Number(failed.Id)]!.receiptHandle);
  }
  return refused;
}

/** Deletes messages (10 a request); returns the receipt handles SQS refused. */
export async function deleteMessages(client: SQSClient, queueUrl: string, receiptHandles: string[]): Promise<string[]> {
  const refused: string[] = [];
  for (const chunk of chunks(receiptHandles, 10)) {
    const result = await client.send(
      new DeleteMessageBatchCommand({ QueueUrl: queueUrl, Entries: chunk.map((ReceiptHandle, i) => ({ Id: String(i), ReceiptHandle })) }),
    );
    for (const failed of result.Failed ?? []) refused.push(chunk[Number(failed.Id)]!);
  }
  return refused;
}

/** `arn:aws:sqs:us-east-2:123456789012:name` → `https://sqs.us-east-2.amazonaws.com/123456789012/name`. */
export function queueUrlFromArn(arn: string): string {
  const [, partition, , region, account, name] = arn.split(":");
  const domain = partition === "aws-cn" ? "amazonaws.com.cn" : "amazonaws.com";
  return `https://sqs.${region}.${domain}/${account}/${name}`;
}

export interface LambdaBatchOptions {
  client: SQSClient;
  /** The queue's URL, or how to find it from the records' ARN; by default derived from the ARN (give it for an emulator, whose URLs differ). */
  queueUrl?: string | ((arn: string) => string);
  /** Told of what cannot be thrown: a visibility change SQS refused (the message then comes back after its timeout). */
  onError?: (error: unknown) => void;
  /**
   * The queue's visibility timeout in seconds. When given, the messages still being handled are hidden again every half of it
   * while the handler runs, so a rollout that outlives the timeout is never handed to a second consumer meanwhile.
   */
  visibilityTimeout?: number;
}

export interface LambdaBatch<T> {
  batch: ReceivedBatch<T>;
  /**
   * After the handler: retried messages get their delay as visibility (so the backoff holds) and are listed as failures,
   * acked ones are not (Lambda deletes them). Undecided messages count as acked, or as retried when `handlerFailed`.
   */
  settle(options?: { handlerFailed?: boolean }): Promise<SqsBatchResponse>;
  /** The receipt handles of the messages neither acked nor retried yet. */
  undecided(): string[];
  /** The queue's URL, as `options.queueUrl` gives it or as derived from the ARN. */
  queueUrl: string;
}

/** A Lambda SQS event's records as a ReceivedBatch; `attempts` is SQS's ApproximateReceiveCount. */
export function fromSqsRecords<T = unknown>(records: readonly SqsEventRecord[], options: LambdaBatchOptions): LambdaBatch<T> {
  const outcomes = new Map<string, Outcome>();
  const messages = records.map((record) =>
    receivedMessage<T>(record.messageId, parseBody(record.body) as T, Number(record.attributes.ApproximateReceiveCount), (outcome) => {
      if (!outcomes.has(record.messageId)) outcomes.set(record.messageId, outcome);
    }),
  );
  const arn = records[0]?.eventSourceARN ?? "";
  const queueUrl = typeof options.queueUrl === "function" ? options.queueUrl(arn) : (options.queueUrl ?? queueUrlFromArn(arn));
  return {
    batch: { queue: sqsQueueName(arn), messages },
    queueUrl,
    undecided: () => records.filter((record) => !outcomes.has(record.messageId)).map((record) => record.receiptHandle),
    async settle({ handlerFailed = false } = {}) {
      const retried = records.flatMap((record) => {
        const outcome = outcomes.get(record.messageId) ?? (handlerFailed ? { kind: "retry", delaySeconds: 0 } : { kind: "ack" });
        return outcome.kind === "retry" ? [{ record, seconds: outcome.delaySeconds }] : [];
      });
      if (retried.length) {
        try {
          const refused = await changeVisibility(
            options.client,
            queueUrl,
            retried.map(({ record, seconds }) => ({ receiptHandle: record.receiptHandle, seconds })),
          );
          if (refused.length) options.onError?.(new Error(`SQS refused the retry delay of ${refused.length} message(s)`));
        } catch (error) {
          // Still reported as failures below: they come back after the queue's visibility timeout instead.
          options.onError?.(error);
        }
      }
      return { batchItemFailures: retried.map(({ record }) => ({ itemIdentifier: record.messageId })) };
    },
  };
}

/** The whole Lambda handler body: parse the event, run the batch handler, answer with the partial batch response. */
export async function handleSqsEvent<T = unknown>(
  event: unknown,
  handle: (batch: ReceivedBatch<T>) => Promise<void>,
  options: LambdaBatchOptions,
): Promise<SqsBatchResponse> {
  const { batch, settle, undecided, queueUrl } = fromSqsRecords<T>(SqsEvent.parse(event).Records, options);
  const seconds = options.visibilityTimeout;
  let beating: Promise<void> = Promise.resolve();
  const beat = async (): Promise<void> => {
    const handles = undecided();
    if (!handles.length || seconds === undefined) return;
    try {
      const refused = await changeVisibility(
        options.client,
        queueUrl,
        handles.map((receiptHandle) => ({ receiptHandle, seconds })),
      );
      if (refused.length) options.onError?.(new Error(`SQS refused to keep ${refused.length} message(s) hidden`));
    } catch (error) {
      options.onError?.(error);
    }
  };
  const heartbeat = seconds ? setInterval(() => (beating = beat()), seconds * 500) : undefined;
  let failed = false;
  try {
    await handle(batch);
  } catch (error) {
    options.onError?.(error);
    failed = true;
  } finally {
    clearInterval(heartbeat);
    // A renewal still on its way must land before a retried message's delay is set, or it would overwrite it.
    await beating;
  }
  return settle(failed ? { handlerFailed: true } : {});
}

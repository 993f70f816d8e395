// Amazon SQS behind the MessageQueue interface: the producer side, and the queue-with-dead-letter-queue helper.
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  type MessageAttributeValue,
  SendMessageBatchCommand,
  type SendMessageBatchRequestEntry,
  SendMessageCommand,
  type SQSClient,
} from "@aws-sdk/client-sqs";
import { rolloutId } from "../contracts/messages.js";
import { batches, MessageTooLargeError, type MessageQueue, type OutgoingMessage, type QueueLimits, utf8Length } from "./queue.js";

/**
 * SQS counts the body's UTF-8 bytes plus every message attribute (name, type, value) against 256 KiB, per message and
 * per batch of at most 10. (SQS has taken up to 1 MiB since 2025 where the queue's MaximumMessageSize allows it; 256 KiB
 * is what every queue takes, and what Lambda's SQS path was built for.)
 */
export const SQS_LIMITS: QueueLimits = { maxMessageBytes: 262_144, maxBatchBytes: 262_144, maxBatchMessages: 10 };
/** SQS delays a message at most 15 minutes; a longer wish is capped, not refused. */
export const SQS_MAX_DELAY_SECONDS = 900;
/** Rounds of resending the entries SQS failed on its side before giving up. */
const SEND_ATTEMPTS = 4;

/** An entry SQS did not accept: which message of the caller's list, and why. */
export interface FailedSend {
  index: number;
  code: string;
  message: string;
  /** The sender's fault (a bad body): resending cannot help. */
  senderFault: boolean;
  rolloutId?: string;
}

/** Some messages were not sent; every other message of the call was. */
export class SqsSendError extends Error {
  override readonly name = "SqsSendError";
  constructor(readonly failed: FailedSend[]) {
    const named = failed.map((f) => `${f.index}${f.rolloutId ? ` (${f.rolloutId})` : ""}: ${f.code}`).join(", ");
    super(`SQS did not take ${failed.length} message(s): ${named}`);
  }
}

function field(body: unknown, name: string): unknown {
  return typeof body === "object" && body !== null ? (body as Record<string, unknown>)[name] : undefined;
}

/** `job_id` and `rollout_id` as message attributes, so a consumer, the console or a DLQ redrive can tell messages apart unread. */
export function sqsAttributes(body: unknown): Record<string, MessageAttributeValue> {
  const jobId = field(body, "job_id");
  if (typeof jobId !== "string" || jobId === "") return {}; // SQS refuses an empty attribute value
  const attributes: Record<string, MessageAttributeValue> = { job_id: { DataType: "String", StringValue: jobId } };
  const explicit = field(body, "rollout_id");
  const task = field(body, "task_index");
  const repeat = field(body, "rollout_index");
  const id = typeof explicit === "string" ? explicit : typeof task === "number" && typeof repeat === "number" ? rolloutId(jobId, task, repeat) : undefined;
  if (id !== undefined) attributes.rollout_id = { DataType: "String", StringValue: id };
  return attributes;
}

/** What SQS counts for a message: the body's UTF-8 bytes and each attribute's name, type and value. */
export function sqsMessageBytes(text: string, attributes: Record<string, MessageAttributeValue>): number {
  let bytes = utf8Length(text);
  for (const [name, value] of Object.entries(attributes)) bytes += utf8Length(name) + utf8Length(value.DataType ?? "") + utf8Length(value.StringValue ?? "");
  return bytes;
}

function delay(seconds: number | undefined): { DelaySeconds?: number } {
  return seconds ? { DelaySeconds: Math.min(SQS_MAX_DELAY_SECONDS, Math.max(0, Math.ceil(seconds))) } : {};
}

interface Prepared<T> extends OutgoingMessage<T> {
  index: number;
  text: string;
  attributes: Record<string, MessageAttributeValue>;
}

export function sqsQueue<T>(client: SQSClient, queueUrl: string, limits: QueueLimits = SQS_LIMITS): MessageQueue<T> {
  const prepare = (message: OutgoingMessage<T>, index: number): Prepared<T> => ({
    ...message,
    index,
    text: JSON.stringify(message.body),
    attributes: sqsAttributes(message.body),
  });
  const size = (message: Prepared<T>) => sqsMessageBytes(message.text, message.attributes);

  /** Sends one batch, resending what SQS failed on its side; returns what is still unsent. */
  async function sendOne(batch: Prepared<T>[]): Promise<FailedSend[]> {
    let pending = batch;
    const refused: FailedSend[] = []; // the sender's fault: final at once
    let failed: FailedSend[] = []; // SQS's side: sent again while attempts last
    for (let attempt = 0; attempt < SEND_ATTEMPTS && pending.length > 0; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** attempt));
      const entries: SendMessageBatchRequestEntry[] = pending.map((m) => ({
        Id: String(m.index),
        MessageBody: m.text,
        ...(Object.keys(m.attributes).length ? { MessageAttributes: m.attributes } : {}),
        ...delay(m.delaySeconds),
      }));
      const result = await client.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }));
      const byId = new Map(pending.map((m) => [String(m.index), m]));
      failed = [];
      const again: Prepared<T>[] = [];
      for (const entry of result.Failed ?? []) {
        const message = byId.get(entry.Id ?? "");
        if (!message) continue;
        const rollout = message.attributes.rollout_id?.StringValue;
        const senderFault = entry.SenderFault === true;
        const failure = {
          index: message.index,
          code: entry.Code ?? "Unknown",
          message: entry.Message ?? "",
          senderFault,
          ...(rollout ? { rolloutId: rollout } : {}),
        };
        if (senderFault) refused.push(failure);
        else {
          failed.push(failure);
          again.push(message);
        }
      }
      pending = again;
    }
    return [...refused, ...failed];
  }

  return {
    limits,
    async send(body, options) {
      const message = prepare({ body, ...(options?.delaySeconds ? { delaySeconds: options.delaySeconds } : {}) }, 0);
      const bytes = size(message);
      if (bytes > limits.maxMessageBytes) throw new MessageTooLargeError(bytes, limits.maxMessageBytes);
      await client.send(
        new SendMessageCommand({
          QueueUrl: queueUrl,
          MessageBody: message.text,
          ...(Object.keys(message.attributes).length ? { MessageAttributes: message.attributes } : {}),
          ...delay(message.delaySeconds),
        }),
      );
    },
    async sendBatch(messages) {
      // Every batch is cut (and every size checked) before the first is sent.
      const cut = batches(messages.map(prepare), limits, size);
      const failed: FailedSend[] = [];
      for (const batch of cut) failed.push(...(await sendOne(batch)));
      if (failed.length) throw new SqsSendError(failed);
    },
  };
}

/** The queue's name, from its URL (`…/123456789012/name`) or ARN (`arn:aws:sqs:region:account:name`). */
export function sqsQueueName(urlOrArn: string): string {
  return urlOrArn.split(urlOrArn.startsWith("arn:") ? ":" : "/").at(-1) ?? urlOrArn;
}

export interface QueueWithDlq {
  queueUrl: string;
  dlqUrl: string;
  dlqArn: string;
}

/**
 * A queue and its dead-letter queue `<name>-dlq`: SQS itself moves a message there when it is received once more after
 * `maxReceiveCount` deliveries (the RedrivePolicy). For tests and local tooling; deployed queues come from SST.
 */
export async function createQueueWithDlq(
  client: SQSClient,
  name: string,
  maxReceiveCount: number,
  attributes: Record<string, string> = {},
): Promise<QueueWithDlq> {
  const dlq = await client.send(new CreateQueueCommand({ QueueName: `${name}-dlq` }));
  const dlqUrl = dlq.QueueUrl!;
  const described = await client.send(new GetQueueAttributesCommand({ QueueUrl: dlqUrl, AttributeNames: ["QueueArn"] }));
  const dlqArn = described.Attributes?.QueueArn;
  if (!dlqArn) throw new Error(`SQS gave no ARN for ${dlqUrl}`);
  const redrive = JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount });
  const queue = await client.send(new CreateQueueCommand({ QueueName: name, Attributes: { ...attributes, RedrivePolicy: redrive } }));
  return { queueUrl: queue.QueueUrl!, dlqUrl, dlqArn };
}

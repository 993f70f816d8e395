// The queue interface every part sends and consumes through; Cloudflare Queues and Amazon SQS both fit behind it.

export interface OutgoingMessage<T> {
  body: T;
  delaySeconds?: number;
}

/** A backend's size limits, in UTF-8 bytes of the JSON body (what the backend counts), and messages per batch. */
export interface QueueLimits {
  maxMessageBytes: number;
  maxBatchBytes: number;
  maxBatchMessages: number;
}

export interface MessageQueue<T> {
  readonly limits: QueueLimits;
  send(body: T, options?: { delaySeconds?: number }): Promise<void>;
  /** Sends every message, in as many backend batches as the limits need. */
  sendBatch(messages: OutgoingMessage<T>[]): Promise<void>;
}

/** A delivered message: acked when done, or retried (after a delay) to be delivered again. */
export interface ReceivedMessage<T = unknown> {
  readonly id: string;
  readonly body: T;
  /** Deliveries so far, this one included (1 on the first). */
  readonly attempts: number;
  ack(): void;
  retry(options?: { delaySeconds?: number }): void;
}

export interface ReceivedBatch<T = unknown> {
  /** The queue the batch came from (its dead-letter queue is a different name). */
  readonly queue: string;
  readonly messages: readonly ReceivedMessage<T>[];
}

const encoder = new TextEncoder();

/** UTF-8 bytes of a string: what queues and buckets count, not JavaScript's UTF-16 characters. */
export function utf8Length(text: string): number {
  // encodeInto into a view sized for the worst case would allocate as much; encode is simplest and exact.
  return encoder.encode(text).byteLength;
}

/** Whether a text fits in `limit` UTF-8 bytes, counting exactly only when its length leaves it in doubt. */
export function fitsInBytes(text: string, limit: number): boolean {
  // A UTF-16 code unit takes 1 to 3 bytes of UTF-8 (a surrogate pair, two units, takes 4).
  if (text.length * 3 <= limit) return true;
  if (text.length > limit) return false;
  return utf8Length(text) <= limit;
}

/** Room for a backend's own envelope around a body (ids, attributes, timestamps). */
export const ENVELOPE_BYTES = 64;

/** Bytes a message body takes on the wire: a text body as it is, anything else as JSON. */
export function messageBytes(body: unknown): number {
  return utf8Length(typeof body === "string" ? body : JSON.stringify(body)) + ENVELOPE_BYTES;
}

/** A message too large for its queue: the sender stores the body in the bucket and sends a pointer instead. */
export class MessageTooLargeError extends RangeError {
  override readonly name = "MessageTooLargeError";
  constructor(
    readonly bytes: number,
    readonly limit: number,
    /** Which message of the caller's list (0 when sent alone). */
    readonly index = 0,
  ) {
    super(`queue message ${index} is ${bytes} bytes (UTF-8), over the limit of ${limit}: store the body in the bucket and send a pointer`);
  }
}

/**
 * Splits messages into batches within the count and byte limits; throws before anything is sent if one message is too large.
 * `sizeOf` is how the backend counts a message (SQS adds its message attributes to the body).
 */
export function batches<M extends OutgoingMessage<unknown>>(
  messages: M[],
  limits: QueueLimits,
  sizeOf: (message: M) => number = (message) => messageBytes(message.body),
): M[][] {
  const out: M[][] = [];
  let current: M[] = [];
  let bytes = 0;
  for (const [index, message] of messages.entries()) {
    const size = sizeOf(message);
    if (size > limits.maxMessageBytes) throw new MessageTooLargeError(size, limits.maxMessageBytes, index);
    if (current.length > 0 && (current.length >= limits.maxBatchMessages || bytes + size > limits.maxBatchBytes)) {
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

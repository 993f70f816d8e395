// Bodies that must arrive in time: a JSON body read whole within a deadline, a streamed upload held to a first-byte
// deadline and a minimum rate. A client that stops sending is cut (408 body_timeout) instead of holding its request open.
import { EdgegymError } from "../protocol/index.js";

const TIMEOUT = Symbol("timeout");

/** The promise's value, or TIMEOUT once `ms` have passed first (the timer is cleared either way). */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | typeof TIMEOUT> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<typeof TIMEOUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMEOUT), Math.max(0, ms));
  });
  try {
    return await Promise.race([promise, expired]);
  } finally {
    clearTimeout(timer);
  }
}

export function bodyTimeout(message: string): EdgegymError {
  return new EdgegymError(408, "body_timeout", message);
}

export type WholeBody = { ok: true; bytes: Uint8Array } | { ok: false; reason: "too_large" | "timeout" | "ended" };

/**
 * Reads a body to its end within `deadlineMs`, keeping at most `limit` bytes. Past the limit the rest is read and dropped
 * (up to `drainBytes`, still within the deadline) so the connection can take the next request; past the deadline, or
 * the drain, the body is cancelled (the runtime then closes the connection). `ended`: the client went away mid-body.
 */
export async function readWhole(body: ReadableStream<Uint8Array>, limit: number, deadlineMs: number, drainBytes: number): Promise<WholeBody> {
  const reader = body.getReader();
  const end = Date.now() + deadlineMs;
  const chunks: Uint8Array[] = [];
  let size = 0;
  const giveUp = (reason: "too_large" | "timeout"): WholeBody => {
    reader.cancel().catch(() => undefined);
    return { ok: false, reason };
  };
  for (;;) {
    let read: ReadableStreamReadResult<Uint8Array> | typeof TIMEOUT;
    try {
      read = await within(reader.read(), end - Date.now());
    } catch {
      return { ok: false, reason: "ended" };
    }
    if (read === TIMEOUT) return giveUp(size > limit ? "too_large" : "timeout");
    if (read.done) break;
    size += read.value.byteLength;
    if (size > limit + drainBytes) return giveUp("too_large");
    if (size <= limit) chunks.push(read.value);
  }
  if (size > limit) return { ok: false, reason: "too_large" };
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return { ok: true, bytes };
}

export interface Pace {
  /** The first byte must come within this long. */
  firstByteMs: number;
  /** Then, over every `windowMs` spent waiting on the client, at least this many bytes a second on average. */
  minBytesPerSecond: number;
  windowMs: number;
}

/**
 * The body as a stream that errors with a 408 (and cancels the client's body) when the client falls behind `pace`.
 * Only time spent waiting on the client counts: a consumer that reads slowly (a bucket write) never makes a client late.
 */
export function paced(body: ReadableStream<Uint8Array>, pace: Pace, onCut: (error: EdgegymError) => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const need = (pace.minBytesPerSecond * pace.windowMs) / 1000;
  let first = true;
  let waited = 0;
  let got = 0;
  let pending: Promise<ReadableStreamReadResult<Uint8Array>> | undefined;
  const cut = (controller: ReadableStreamDefaultController<Uint8Array>, message: string) => {
    const error = bodyTimeout(message);
    onCut(error);
    reader.cancel(error).catch(() => undefined);
    controller.error(error);
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        const began = Date.now();
        pending ??= reader.read();
        const read = await within(pending, (first ? pace.firstByteMs : pace.windowMs) - waited);
        waited += Date.now() - began;
        if (read === TIMEOUT) {
          if (first) return cut(controller, `no byte of the upload arrived within ${pace.firstByteMs / 1000} s`);
          if (got < need) {
            return cut(controller, `the upload is slower than ${pace.minBytesPerSecond} bytes/s (${got} bytes in ${pace.windowMs / 1000} s)`);
          }
          waited = 0;
          got = 0;
          continue;
        }
        pending = undefined;
        if (read.done) return controller.close();
        if (first) {
          first = false;
          waited = 0;
        }
        got += read.value.byteLength;
        controller.enqueue(read.value);
        return;
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

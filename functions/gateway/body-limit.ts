// Request body caps, enforced while reading: a Content-Length over the cap is refused before a byte is read, and a
// body without one is counted as it streams (never buffered here), so a 413 comes either way.
import type { Context } from "hono";
import { EdgegymError } from "../../protocol/index.js";

/** A refused body is read this far so the connection stays usable, then cancelled (the client is told to close it). */
const DRAIN_BYTES = 16 * 1024 * 1024;

function tooLarge(limit: number): EdgegymError {
  return new EdgegymError(413, "body_too_large", `the request body is larger than this route's limit of ${limit} bytes`);
}

/** Reads what is left of a body, up to DRAIN_BYTES, then gives up on it. */
async function drain(body: ReadableStream<Uint8Array>): Promise<boolean> {
  const reader = body.getReader();
  let read = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return true;
      read += value.byteLength;
      if (read > DRAIN_BYTES) {
        await reader.cancel();
        return false;
      }
    }
  } catch {
    return false;
  }
}

/** The 413 envelope, the body read or dropped, and the request left without a body for the middleware that drains. */
async function refuse(c: Context, body: ReadableStream<Uint8Array> | null, limit: number): Promise<Response> {
  const drained = body ? await drain(body) : true;
  c.req.raw = new Request(c.req.url, { method: c.req.method, headers: c.req.raw.headers });
  const headers: Record<string, string> = drained ? {} : { connection: "close" };
  return c.json(tooLarge(limit).toEnvelope(), 413, headers);
}

/**
 * Caps the request body at `limit` bytes. With a Content-Length the runtime reads exactly that many bytes, so the header
 * is checked and the body left as it is (a bucket write needs its known length); without one, the body is counted.
 */
export async function limitBody(c: Context, limit: number, next: () => Promise<void>): Promise<Response | undefined> {
  const raw = c.req.raw;
  if (!raw.body) {
    await next();
    return;
  }
  const declared = raw.headers.get("content-length");
  if (declared !== null && !raw.headers.has("transfer-encoding")) {
    if (Number(declared) > limit) return refuse(c, raw.body, limit);
    await next();
    return;
  }
  let size = 0;
  let over = false;
  const counted = raw.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        size += chunk.byteLength;
        if (size > limit) {
          over = true;
          controller.error(tooLarge(limit));
          return;
        }
        controller.enqueue(chunk);
      },
    }),
  );
  c.req.raw = new Request(raw, { body: counted });
  try {
    await next();
  } catch (error) {
    if (!over) throw error;
  }
  // Whatever the handler made of a body cut short (a JSON error, a failed upload), the answer is the 413.
  if (over) {
    c.res = undefined;
    c.res = await refuse(c, raw.body.locked ? null : raw.body, limit);
  }
}

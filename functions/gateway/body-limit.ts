// Request body caps, enforced while reading: a Content-Length over the cap is refused before a byte is read, and a
// body without one is counted as it streams (never buffered here), so a 413 comes either way.
import type { Context } from "hono";
import { EdgegymError } from "../../protocol/index.js";
import { type GatewayContext, requestIdOf } from "./caller.js";

/** A refused body is read this far so the connection stays usable; beyond, it is cancelled (and the connection with it). */
const DRAIN_BYTES = 16 * 1024 * 1024;

function tooLarge(limit: number): EdgegymError {
  return new EdgegymError(413, "body_too_large", `the request body is larger than this route's limit of ${limit} bytes`);
}

/** Reads what is left of a body, up to DRAIN_BYTES, then gives up on it; true when it was read to its end. */
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

/** Answers the 413 envelope, the body read or dropped, and the request left without a body for the middleware that drains. */
async function refuse(c: Context<GatewayContext>, body: ReadableStream<Uint8Array> | null, limit: number): Promise<void> {
  if (body) await drain(body);
  c.req.raw = new Request(c.req.url, { method: c.req.method, headers: c.req.raw.headers });
  const answer = Response.json(tooLarge(limit).toEnvelope(requestIdOf(c)), { status: 413 });
  c.res = undefined;
  c.res = answer;
}

/**
 * Caps the request body at `limit` bytes (a refusal is set as the context's answer). With a Content-Length the runtime reads exactly that many bytes, so the header
 * is checked and the body left as it is (a bucket write needs its known length); without one, the body is counted.
 */
export async function limitBody(c: Context<GatewayContext>, limit: number, next: () => Promise<void>): Promise<void> {
  const raw = c.req.raw;
  if (!raw.body) return next();
  const declared = raw.headers.get("content-length");
  if (declared !== null && !raw.headers.has("transfer-encoding")) {
    if (Number(declared) > limit) return refuse(c, raw.body, limit);
    return next();
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
  if (over) await refuse(c, raw.body.locked ? null : raw.body, limit);
}

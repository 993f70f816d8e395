// Request bodies, before any slot is taken: a JSON body is read whole within BODY_TIMEOUT_SECONDS (413 past its cap, 408
// past the deadline); a streamed upload is capped as it streams (never buffered here) and cut with a 408 when it falls
// below MIN_UPLOAD_BYTES_PER_SECOND, so a client that stops sending never holds a request, or an admission slot, for long.
import type { Context } from "hono";
import type { GatewayConfig } from "../../contracts/config.js";
import { paced, readWhole } from "../../http/body-deadline.js";
import { EdgegymError } from "../../protocol/index.js";
import { type GatewayContext, requestIdOf } from "./caller.js";

/** A refused body is read this far so the connection stays usable; beyond, it is cancelled (and the connection with it). */
const DRAIN_BYTES = 16 * 1024 * 1024;

function tooLarge(limit: number): EdgegymError {
  return new EdgegymError(413, "body_too_large", `the request body is larger than this route's limit of ${limit} bytes`);
}

/** Sets the refusal as the context's answer, the request left without a body for the middleware that drains. */
function answer(c: Context<GatewayContext>, error: EdgegymError): void {
  c.req.raw = new Request(c.req.url, { method: c.req.method, headers: c.req.raw.headers });
  c.res = undefined;
  c.res = Response.json(error.toEnvelope(requestIdOf(c)), { status: error.status });
}

function refusal(reason: "too_large" | "timeout" | "ended", limit: number, deadlineSeconds: number): EdgegymError {
  if (reason === "too_large") return tooLarge(limit);
  if (reason === "timeout") return new EdgegymError(408, "body_timeout", `the request body did not arrive within ${deadlineSeconds} s (BODY_TIMEOUT_SECONDS)`);
  return new EdgegymError(400, "body_incomplete", "the client closed the connection before the request body was complete");
}

/** A JSON body: read whole (at most `limit` bytes, within the deadline), then handed on as bytes. */
async function wholeBody(c: Context<GatewayContext>, limit: number, config: GatewayConfig, next: () => Promise<void>): Promise<void> {
  const raw = c.req.raw;
  const declared = raw.headers.get("content-length");
  const known = declared !== null && !raw.headers.has("transfer-encoding");
  const deadline = config.BODY_TIMEOUT_SECONDS * 1000;
  // A Content-Length over the cap is refused before a byte is kept (what follows is drained, within the deadline).
  if (known && Number(declared) > limit) {
    await readWhole(raw.body!, -1, deadline, DRAIN_BYTES);
    return answer(c, tooLarge(limit));
  }
  const read = await readWhole(raw.body!, limit, deadline, DRAIN_BYTES);
  if (!read.ok) return answer(c, refusal(read.reason, limit, config.BODY_TIMEOUT_SECONDS));
  c.req.raw = new Request(raw.url, { method: raw.method, headers: raw.headers, body: read.bytes });
  return next();
}

/**
 * A streamed upload: paced (a first byte within BODY_TIMEOUT_SECONDS, then MIN_UPLOAD_BYTES_PER_SECOND) and capped at
 * `limit`. With a Content-Length it stays a stream of that known length (a bucket write needs one); a header over the cap
 * is refused before a byte is read. Whatever the handler made of a body cut short, the answer is the 413 or the 408.
 */
async function streamedBody(c: Context<GatewayContext>, limit: number, config: GatewayConfig, next: () => Promise<void>): Promise<void> {
  const raw = c.req.raw;
  const declared = raw.headers.get("content-length");
  const known = declared !== null && !raw.headers.has("transfer-encoding");
  if (known && Number(declared) > limit) {
    await readWhole(raw.body!, -1, config.BODY_TIMEOUT_SECONDS * 1000, DRAIN_BYTES);
    return answer(c, tooLarge(limit));
  }
  let cut: EdgegymError | undefined;
  const windowMs = config.BODY_TIMEOUT_SECONDS * 1000;
  const pace = { firstByteMs: windowMs, windowMs, minBytesPerSecond: config.MIN_UPLOAD_BYTES_PER_SECOND };
  let body = paced(raw.body!, pace, (error) => {
    cut = error;
  });
  if (known) {
    const fixed = new FixedLengthStream(Number(declared));
    body.pipeTo(fixed.writable).catch(() => undefined);
    body = fixed.readable;
  } else {
    let size = 0;
    body = body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          size += chunk.byteLength;
          if (size > limit) {
            cut = tooLarge(limit);
            controller.error(cut);
            return;
          }
          controller.enqueue(chunk);
        },
      }),
    );
  }
  c.req.raw = new Request(raw.url, { method: raw.method, headers: raw.headers, body });
  try {
    await next();
  } catch (error) {
    if (!cut) throw error;
  }
  // The client's body was cancelled when it was cut; the runtime closes its connection after the answer.
  if (cut) answer(c, cut);
}

/** Caps and times the request body by the route's kind (policy.ts): `json` read whole first, `upload` streamed. */
export async function limitBody(c: Context<GatewayContext>, kind: "json" | "upload", config: GatewayConfig, next: () => Promise<void>): Promise<void> {
  if (!c.req.raw.body) return next();
  if (kind === "json") return wholeBody(c, config.MAX_BODY_BYTES, config, next);
  return streamedBody(c, config.MAX_UPLOAD_BYTES, config, next);
}

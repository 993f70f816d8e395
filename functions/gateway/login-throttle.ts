// Failed bearer attempts throttled per client address: after 10 within a minute, 429 with Retry-After, answered before
// any token is compared (so guessing stops there, right or wrong); a caller whose token is right is never counted.
import type { Context } from "hono";
import { EdgegymError } from "../../protocol/index.js";
import { type GatewayContext, requestIdOf } from "./caller.js";

/** Failures an address may make at once, refilled at this many a minute: a token bucket of the RATE_LIMITS kind. */
export const LOGIN_FAILURES_PER_MINUTE = 10;
const RATE = LOGIN_FAILURES_PER_MINUTE / 60;

/**
 * The caller's address: CF-Connecting-IP, which Cloudflare's edge (and Miniflare, from the socket) sets. Without one,
 * every such caller shares one bucket. The object's name has a `:`, which no token name has, so no bucket is shared.
 */
function clientAddress(c: Context<GatewayContext>): string {
  return `login-failures:${(c.req.header("cf-connecting-ip") ?? "unknown").slice(0, 64)}`;
}

/** Runs `check` (the token check, then the route) unless the address is throttled; a refused token is counted. */
export async function throttleFailures(c: Context<GatewayContext>, check: () => Promise<Response | undefined>): Promise<Response | undefined> {
  // No Authorization header: nothing is compared, nothing to throttle (a plain 401 follows).
  if (!c.req.header("authorization")) return check();
  const bucket = c.env.RATE_LIMITS.getByName(clientAddress(c));
  const wait = await bucket.wait(RATE, LOGIN_FAILURES_PER_MINUTE);
  if (wait > 0) {
    const error = new EdgegymError(
      429,
      "too_many_failed_logins",
      `too many requests with a wrong bearer token from this address (${LOGIN_FAILURES_PER_MINUTE} a minute); retry after ${wait} s`,
    );
    return c.json(error.toEnvelope(requestIdOf(c)), 429, { "Retry-After": String(wait) });
  }
  try {
    return await check();
  } finally {
    // Counted before the 401 leaves, so the next attempt sees it.
    if (c.get("caller") === undefined) await bucket.take(RATE, LOGIN_FAILURES_PER_MINUTE);
  }
}

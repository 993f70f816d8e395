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

/**
 * Addresses this isolate found unthrottled, until when: a caller with the right token costs no object call per request
 * (one a second at most). A failure here forgets the address, so its next attempt asks the object again; a failure in
 * another isolate is seen here within a second, so a spread-out guesser gains at most one try per isolate.
 */
const clean = new Map<string, number>();
const CLEAN_FOR_MS = 1_000;

/** Runs `check` (the token check, then the route) unless the address is throttled; a refused token is counted. */
export async function throttleFailures(c: Context<GatewayContext>, check: () => Promise<Response | undefined>): Promise<Response | undefined> {
  // No Authorization header: nothing is compared, nothing to throttle (a plain 401 follows).
  if (!c.req.header("authorization")) return check();
  const address = clientAddress(c);
  const bucket = c.env.RATE_LIMITS.getByName(address);
  const known = (clean.get(address) ?? 0) > Date.now();
  const wait = known ? 0 : await bucket.wait(RATE, LOGIN_FAILURES_PER_MINUTE);
  if (!known && wait === 0) {
    if (clean.size > 10_000) clean.clear();
    clean.set(address, Date.now() + CLEAN_FOR_MS);
  }
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
    if (c.get("caller") === undefined) {
      clean.delete(address);
      await bucket.take(RATE, LOGIN_FAILURES_PER_MINUTE);
    }
  }
}

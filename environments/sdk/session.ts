// Session ids over HTTP: NeMo Gym threads a session cookie through seed → tools → verify; edgegym also takes a header.
import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import { CALLER_HEADER, SESSION_COOKIE, SESSION_HEADER } from "../../contracts/names.js";
import type { SessionOwner } from "../../contracts/rpc.js";

export { SESSION_COOKIE, SESSION_HEADER };

/** Longer than any id edgegym mints: anything beyond is not worth checking. */
const MAX_ID_LENGTH = 256;

/**
 * The session id a request carries: the header first, then edgegym's cookie. Whatever is carried is returned as it is,
 * to be checked: an id the caller made up is refused, never taken as a new session. (NeMo Gym's own Starlette session
 * cookie is not read: its signature cannot be checked here, and a NeMo Gym agent forwards edgegym's cookie anyway.)
 */
export function sessionIdOf(c: Context): string | undefined {
  const carried = c.req.header(SESSION_HEADER) || getCookie(c, SESSION_COOKIE);
  return carried ? carried.slice(0, MAX_ID_LENGTH) : undefined;
}

/**
 * Whether the caller reached us over HTTPS: this request's own URL, or the gateway in front saying so in
 * X-Forwarded-Proto (it sets the header from its own URL). Trusting the header can only add `Secure` to a cookie.
 */
export function overHttps(c: Context): boolean {
  return new URL(c.req.url).protocol === "https:" || c.req.header("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase() === "https";
}

/**
 * An outside caller's sessions belong to its token: the gateway names the token in a header of its own on every request
 * it forwards (environment Workers have no public URL, so no one else can set it).
 */
export function httpOwner(c: Context): SessionOwner {
  return { rollout: "", token: c.req.header(CALLER_HEADER) ?? "" };
}

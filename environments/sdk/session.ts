// Session ids over HTTP: NeMo Gym threads a session cookie through seed → tools → verify; edgegym also takes a header.
import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import { SESSION_COOKIE, SESSION_HEADER } from "../../contracts/names.js";

export { SESSION_COOKIE, SESSION_HEADER };

const SESSION_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

/**
 * NeMo Gym's servers keep the id in a Starlette session cookie: base64(JSON {session_id}) "." timestamp "." signature.
 * A trainer replaying such a cookie keeps its session, so read the id out of it.
 */
function starletteSessionId(value: string): string | undefined {
  const parts = value.split(".");
  if (parts.length !== 3 || !parts[0]) return undefined;
  try {
    const decoded: unknown = JSON.parse(atob(parts[0].replace(/-/g, "+").replace(/_/g, "/")));
    if (decoded && typeof decoded === "object" && "session_id" in decoded && typeof decoded.session_id === "string") return decoded.session_id;
  } catch {
    // Not base64 JSON: not a Starlette session cookie, so it carries no session id.
  }
  return undefined;
}

/** The session id a request carries: the header first, then our cookie, then a NeMo Gym session cookie. */
export function sessionIdOf(c: Context): string | undefined {
  const fromHeader = c.req.header(SESSION_HEADER);
  if (fromHeader && SESSION_ID.test(fromHeader)) return fromHeader;
  const jar = getCookie(c);
  const ours = jar[SESSION_COOKIE];
  if (ours && SESSION_ID.test(ours)) return ours;
  for (const value of Object.values(jar)) {
    const id = starletteSessionId(value);
    if (id && SESSION_ID.test(id)) return id;
  }
  return undefined;
}

/** Session ids are random, so one cannot be guessed from another. */
export function newSessionId(): string {
  return crypto.randomUUID();
}

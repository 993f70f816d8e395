// Session ids: NeMo Gym threads a session cookie through seed → tools → verify; edgegym also takes a header.
export const SESSION_HEADER = "x-session-id";
export const SESSION_COOKIE = "edgegym_session";

const SESSION_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

function cookies(header: string | null): Map<string, string> {
  const jar = new Map<string, string>();
  for (const pair of (header ?? "").split(";")) {
    const at = pair.indexOf("=");
    if (at > 0)
      jar.set(
        pair.slice(0, at).trim(),
        pair
          .slice(at + 1)
          .trim()
          .replace(/^"(.*)"$/, "$1"),
      );
  }
  return jar;
}

/**
 * NeMo Gym's servers keep the id in a Starlette session cookie: base64(JSON {session_id}) "." timestamp "." signature.
 * A trainer replaying such a cookie keeps its session, so read the id out of it.
 */
function starletteSessionId(value: string): string | undefined {
  const payload = value.split(".")[0];
  if (!payload || value.split(".").length !== 3) return undefined;
  try {
    const decoded: unknown = JSON.parse(atob(payload.replace(/-/g, "+").replace(/_/g, "/")));
    if (decoded && typeof decoded === "object" && "session_id" in decoded && typeof decoded.session_id === "string") {
      return decoded.session_id;
    }
  } catch {
    // Not a Starlette session cookie.
  }
  return undefined;
}

/** The session id a request carries: the header first, then our cookie, then a NeMo Gym session cookie. */
export function sessionIdOf(headers: Headers): string | undefined {
  const fromHeader = headers.get(SESSION_HEADER);
  if (fromHeader && SESSION_ID.test(fromHeader)) return fromHeader;
  const jar = cookies(headers.get("cookie"));
  const ours = jar.get(SESSION_COOKIE);
  if (ours && SESSION_ID.test(ours)) return ours;
  for (const value of jar.values()) {
    const id = starletteSessionId(value);
    if (id && SESSION_ID.test(id)) return id;
  }
  return undefined;
}

export function sessionCookie(sessionId: string): string {
  return `${SESSION_COOKIE}=${sessionId}; Path=/; HttpOnly; SameSite=Lax`;
}

/** Session ids are random, so one cannot be guessed from another. */
export function newSessionId(): string {
  return crypto.randomUUID();
}

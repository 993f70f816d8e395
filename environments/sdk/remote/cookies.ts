// The server's session cookie, carried as NeMo Gym's agent carries it: every Set-Cookie answer updates the jar, whatever
// the cookie's name (nemo_gym/server_utils.py names it after the server: `<Class>___<config name>`).

/** `name=value` pairs of a Cookie header, in order. */
function pairs(header: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of header.split(";")) {
    const at = part.indexOf("=");
    if (at <= 0) continue;
    out.set(part.slice(0, at).trim(), part.slice(at + 1).trim());
  }
  return out;
}

/**
 * The Cookie header to send after an answer's Set-Cookie headers: each sets or replaces its name; one that expires it
 * (Max-Age=0 or a past Expires) removes it. Null when the jar would pass `maxBytes` (a server flooding cookies).
 */
export function nextCookie(current: string, setCookies: readonly string[], maxBytes: number): string | null {
  const jar = pairs(current);
  for (const line of setCookies) {
    const [first = "", ...attributes] = line.split(";");
    const at = first.indexOf("=");
    if (at <= 0) continue;
    const name = first.slice(0, at).trim();
    const value = first.slice(at + 1).trim();
    const expired = attributes.some((attribute) => {
      const [key = "", val = ""] = attribute.split("=").map((s) => s.trim());
      if (key.toLowerCase() === "max-age") return Number(val) <= 0;
      if (key.toLowerCase() === "expires") return Date.parse(val) < Date.now();
      return false;
    });
    if (expired) jar.delete(name);
    else jar.set(name, value);
  }
  const header = [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
  return new TextEncoder().encode(header).length > maxBytes ? null : header;
}

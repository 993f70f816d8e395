// What the gateway passes on to the Worker behind a route: the request without its bearer token, with the caller's name.
import type { Context } from "hono";
import { CALLER_HEADER } from "../../contracts/names.js";
import { callerOf } from "./caller.js";

/** The token stops here; the Worker behind learns who called from CALLER_HEADER, which no outside caller can set. */
export function forwarded(c: Context): Request {
  const headers = new Headers(c.req.raw.headers);
  headers.delete("authorization");
  headers.set(CALLER_HEADER, callerOf(c).name);
  return new Request(c.req.raw, { headers });
}

// One log line per request for a Hono app (request id, method, path, status, duration), and the request id handed on
// (x-request-id in and out), so a client's report, the gateway's line and the Workers' lines behind it meet.
import type { Context, MiddlewareHandler } from "hono";
import { createMiddleware } from "hono/factory";
import { REQUEST_ID_HEADER } from "../contracts/names.js";
import { type Logger, requestId } from "./log.js";

declare module "hono" {
  interface ContextVariableMap {
    /** This request's id (the caller's x-request-id when it is a sane one). */
    requestId: string;
  }
}

/** `logger` is the Worker's (built once per isolate from its LOG_LEVEL). Paths are logged without their query. */
export function requestLog(logger: (c: Context) => Logger): MiddlewareHandler {
  return createMiddleware(async (c, next) => {
    const started = Date.now();
    const id = requestId(c.req.header(REQUEST_ID_HEADER));
    c.set("requestId", id);
    await next();
    c.header(REQUEST_ID_HEADER, id);
    const status = c.res.status;
    const fields = { request_id: id, method: c.req.method, path: c.req.path, outcome: status, duration_ms: Date.now() - started };
    const log = logger(c);
    if (status >= 500) log.error("request failed", { ...fields, error: c.error });
    else log.info("request", fields);
  });
}

// A request id on every answer (the caller's x-request-id when well-formed, else a new one), in every error body and
// in the request's log line (the gateway's access log, through the structured logger of http/log.ts).
import type { Context } from "hono";
import { REQUEST_ID_HEADER } from "../../contracts/names.js";
import { type Logger, requestId as requestIdFor, silentLog, workerLogger } from "../../http/log.js";
import { type GatewayContext, gateway } from "./caller.js";
import { gatewayPorts } from "./ports.js";

/** The gateway's logger at its LOG_LEVEL; the access line is off when LOG_REQUESTS is "false". */
function accessLog(c: Context<GatewayContext>): Logger {
  try {
    const config = gatewayPorts(c.env).config;
    return config.LOG_REQUESTS ? workerLogger("gateway", config.LOG_LEVEL) : silentLog;
  } catch {
    // A configuration error is the answer already; the line is still logged, at the default level.
    return workerLogger("gateway", undefined);
  }
}

export const requestId = gateway.createMiddleware(async (c, next) => {
  const id = requestIdFor(c.req.header(REQUEST_ID_HEADER));
  c.set("requestId", id);
  const started = Date.now();
  await next();
  c.header(REQUEST_ID_HEADER, id);
  const status = c.res.status;
  const fields = {
    request_id: id,
    method: c.req.method,
    path: c.req.path,
    outcome: status,
    duration_ms: Date.now() - started,
    caller: c.get("caller")?.name,
  };
  const log = accessLog(c);
  if (status >= 500) log.error("request failed", { ...fields, error: c.error });
  else log.info("request", fields);
});

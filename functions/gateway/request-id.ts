// A request id on every answer (the caller's x-request-id when well-formed, else a new one), in every error body and
// in the request's log line (the gateway's access log, through the structured logger of http/log.ts).
import { concat } from "../../http/jsonl.js";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { GatewayEnv } from "../../contracts/env.generated.js";
import { REQUEST_ID_HEADER } from "../../contracts/names.js";
import { type Logger, requestId as requestIdFor, silentLog, workerLogger } from "../../http/log.js";
import { maybeCallerOf, setRequestId } from "./caller.js";
import { gatewayPorts } from "./ports.js";
/** Error bodies are small envelopes; anything larger is passed on as it is. */
const MAX_ERROR_BODY = 64 * 1024;

/** A body's text when it is at most `max` bytes, else undefined (the copy is dropped, the original is untouched). */
async function smallText(response: Response, max: number): Promise<string | undefined> {
  const copy = response.clone().body;
  if (!copy) return "";
  const reader = copy.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(concat(chunks, size));
}

/** Adds `request_id` to an error envelope's `error` object; any other body is left alone. */
async function withRequestId(response: Response, id: string): Promise<Response | undefined> {
  if (!(response.headers.get("content-type") ?? "").includes("application/json")) return undefined;
  const text = await smallText(response, MAX_ERROR_BODY);
  if (text === undefined) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!body || typeof body !== "object" || !("error" in body) || !body.error || typeof body.error !== "object") return undefined;
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(JSON.stringify({ ...body, error: { ...body.error, request_id: id } }), { status: response.status, headers });
}

/** The gateway's logger at its LOG_LEVEL; the access line is off when LOG_REQUESTS is "false". */
function accessLog(c: Context<{ Bindings: GatewayEnv }>): Logger {
  try {
    const config = gatewayPorts(c.env).config;
    return config.LOG_REQUESTS ? workerLogger("gateway", config.LOG_LEVEL) : silentLog;
  } catch {
    // A configuration error is the answer already; the line is still logged, at the default level.
    return workerLogger("gateway", undefined);
  }
}

export const requestId = createMiddleware<{ Bindings: GatewayEnv }>(async (c, next) => {
  const id = requestIdFor(c.req.header(REQUEST_ID_HEADER));
  setRequestId(c, id);
  const started = Date.now();
  await next();
  if (c.res.status >= 400) {
    const rewritten = await withRequestId(c.res, id);
    if (rewritten) {
      c.res = undefined;
      c.res = rewritten;
    }
  }
  c.header(REQUEST_ID_HEADER, id);
  const status = c.res.status;
  const fields = {
    request_id: id,
    method: c.req.method,
    path: c.req.path,
    outcome: status,
    duration_ms: Date.now() - started,
    caller: maybeCallerOf(c)?.name,
  };
  const log = accessLog(c);
  if (status >= 500) log.error("request failed", { ...fields, error: c.error });
  else log.info("request", fields);
});

// HTTP helpers every Worker shares: the error envelope, JSON bodies, a Hono error handler.
import type { Context, Env, ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { DeadlineError, type RpcError } from "../contracts/rpc.js";
import { EdgegymError, type ErrorStatus } from "../protocol/index.js";
import { isJsonContentType, parseJsonWithin, utf8Text } from "./json.js";

export function errorResponse(status: ErrorStatus, code: string, message: string): Response {
  return Response.json(new EdgegymError(status, code, message).toEnvelope(), { status });
}

/** The envelope's error for anything thrown: an EdgegymError as it is, a call this Worker stopped waiting for a 504, else a 500. */
function asEdgegymError(error: unknown): EdgegymError {
  if (error instanceof EdgegymError) return error;
  // A call this Worker stopped waiting for (contracts/rpc.ts within): a timeout, said as one.
  if (error instanceof DeadlineError) return new EdgegymError(504, "timeout", error.message);
  return new EdgegymError(500, "internal_error", error instanceof Error ? error.message : String(error));
}

/**
 * Every thrown error becomes the envelope; an unexpected one is a 500 that says what happened. `requestIdOf` gives the id
 * written into the envelope as it is made (the gateway's; the Workers behind it have none to write).
 */
export function errorHandler<E extends Env>(requestIdOf: (c: Context<E>) => string | undefined = () => undefined): ErrorHandler<E> {
  return (error, c) => {
    // A middleware's own answer (bearer auth's 401 with WWW-Authenticate) goes out as it made it.
    if (error instanceof HTTPException) return error.getResponse();
    const answer = asEdgegymError(error);
    return c.json(answer.toEnvelope(requestIdOf(c)), answer.status as ContentfulStatusCode);
  };
}

/** The 404 of a path no route has, with the request id as errorHandler writes it. */
export function notFoundHandler<E extends Env>(requestIdOf: (c: Context<E>) => string | undefined = () => undefined): NotFoundHandler<E> {
  return (c) => c.json(new EdgegymError(404, "not_found", `no route for ${c.req.method} ${new URL(c.req.url).pathname}`).toEnvelope(requestIdOf(c)), 404);
}

export const onError: ErrorHandler = errorHandler();
export const notFound: NotFoundHandler = notFoundHandler();

/**
 * The request body as JSON; an empty body is `{}` (NeMo Gym posts tools without arguments that way). A content type that is
 * not JSON is a 415, bytes that are not UTF-8 a 400, and nesting or strings past the limits (http/json.ts) a 4xx.
 */
export async function readJson(c: Context): Promise<unknown> {
  if (!isJsonContentType(c.req.header("content-type"))) {
    throw new EdgegymError(415, "unsupported_media_type", `the body must be JSON (Content-Type: application/json), not ${c.req.header("content-type")}`);
  }
  const text = utf8Text(new Uint8Array(await c.req.arrayBuffer()), "request body");
  if (text.trim() === "") return {};
  return parseJsonWithin(text, "request body");
}

/** An error as data for an RPC answer: an EdgegymError keeps its status and code, a deadline is a 504, anything else a 500. */
export function rpcError(error: unknown): RpcError {
  if (error instanceof EdgegymError)
    return { status: error.status, code: error.code, message: error.message, ...(error.issues ? { issues: error.issues } : {}) };
  // A call this Worker stopped waiting for (contracts/rpc.ts within): a timeout, said as one.
  if (error instanceof DeadlineError) return { status: 504, code: "timeout", message: error.message };
  return { status: 500, code: "internal_error", message: error instanceof Error ? error.message : String(error) };
}

/** An RPC answer's error, thrown again on this side so the error middleware answers it as the envelope. */
export function raise(error: RpcError): never {
  throw new EdgegymError(error.status as ErrorStatus, error.code, error.message, error.issues);
}

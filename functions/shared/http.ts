// HTTP helpers every Worker shares: the error envelope, JSON bodies, a Hono error handler.
import type { Context, ErrorHandler, NotFoundHandler } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { EdgegymError, type ErrorStatus } from "../../protocol/index.js";

export function errorResponse(status: ErrorStatus, code: string, message: string): Response {
  return Response.json(new EdgegymError(status, code, message).toEnvelope(), { status });
}

/** Every thrown error becomes the envelope; an unexpected one is a 500 that says what happened. */
export const onError: ErrorHandler = (error, c) => {
  if (error instanceof EdgegymError) return c.json(error.toEnvelope(), error.status as ContentfulStatusCode);
  const message = error instanceof Error ? error.message : String(error);
  return c.json(new EdgegymError(500, "internal_error", message).toEnvelope(), 500);
};

export const notFound: NotFoundHandler = (c) =>
  c.json(new EdgegymError(404, "not_found", `no route for ${c.req.method} ${new URL(c.req.url).pathname}`).toEnvelope(), 404);

/** The request body as JSON; an empty body is `{}` (NeMo Gym posts tools without arguments that way). */
export async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new EdgegymError(400, "invalid_json", `request body is not valid JSON: ${reason}`);
  }
}

// Bearer-token authentication for every route but /health, as one middleware.
import { createMiddleware } from "hono/factory";
import type { GatewayEnv } from "../bindings.js";
import { errorResponse } from "../shared/http.js";

const encoder = new TextEncoder();

/** Compare without leaking where the strings differ. */
function sameToken(a: string, b: string): boolean {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}

export const requireToken = createMiddleware<{ Bindings: GatewayEnv }>(async (c, next) => {
  const tokens = (c.env.API_TOKENS ?? "")
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean);
  // No tokens configured: the local emulation, open on loopback.
  if (tokens.length === 0 || new URL(c.req.url).pathname === "/health") return next();
  const presented = c.req
    .header("authorization")
    ?.match(/^Bearer\s+(.+)$/i)?.[1]
    ?.trim();
  if (!presented) return errorResponse(401, "unauthorized", "missing bearer token (Authorization: Bearer <token>)");
  if (!tokens.some((token) => sameToken(token, presented))) return errorResponse(403, "forbidden", "the bearer token is not valid");
  return next();
});

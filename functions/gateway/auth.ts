// Bearer-token authentication for every route but the public ones (public.ts), as one middleware (hono/bearer-auth, the error envelope).
import type { MiddlewareHandler } from "hono";
import { bearerAuth } from "hono/bearer-auth";
import { createMiddleware } from "hono/factory";
import type { GatewayEnv } from "../../contracts/env.generated.js";
import { EdgegymError } from "../../protocol/index.js";
import { gatewayPorts } from "./ports.js";
import { isPublicPath } from "./public.js";

const envelope = (code: string, message: string) => new EdgegymError(401, code, message).toEnvelope();

/** One checker per token list (per isolate): hono compares in constant time and answers 401 with WWW-Authenticate. */
const checkers = new WeakMap<readonly string[], MiddlewareHandler>();

function checker(tokens: readonly string[]): MiddlewareHandler {
  let check = checkers.get(tokens);
  if (!check) {
    check = bearerAuth({
      token: [...tokens],
      noAuthenticationHeader: { message: envelope("unauthorized", "missing bearer token (Authorization: Bearer <token>)") },
      invalidAuthenticationHeader: { message: envelope("unauthorized", "the Authorization header is not `Bearer <token>`") },
      invalidToken: { message: envelope("unauthorized", "the bearer token is not valid") },
    });
    checkers.set(tokens, check);
  }
  return check;
}

export const requireToken = createMiddleware<{ Bindings: GatewayEnv }>(async (c, next) => {
  const tokens = gatewayPorts(c.env).config.API_TOKENS;
  // No tokens configured: the local emulation, open on loopback.
  if (tokens.length === 0 || isPublicPath(c.req.path)) return next();
  return checker(tokens)(c, next);
});

// The gateway's checks, in order, for every request but /health: failed logins (429), token (401), scope (403), rate
// (429), body size and time (413, 408), the tenant's in_flight quota (429, quotas.ts), admission (503). Each answers in
// the error envelope; what they share comes from the route's policy (policy.ts).
import type { Context } from "hono";
import { allows } from "../../contracts/tokens.js";
import { EdgegymError } from "../../protocol/index.js";
import { authenticate } from "./auth.js";
import { limitBody } from "./body-limit.js";
import { throttleFailures } from "./login-throttle.js";
import { callerOf, type GatewayContext, gateway, requestIdOf } from "./caller.js";
import { policyFor } from "./policy.js";
import { gatewayPorts } from "./ports.js";
import { admitOne } from "./slots.js";

function refuse(c: Context<GatewayContext>, error: EdgegymError, headers: Record<string, string>): Response {
  return c.json(error.toEnvelope(requestIdOf(c)), error.status as 403 | 429 | 503, headers);
}

const token = gateway.createMiddleware(async (c, next) => {
  if (policyFor(c).public) return next();
  return throttleFailures(c, () => authenticate(c, gatewayPorts(c.env).config.API_TOKENS, next));
});

const scope = gateway.createMiddleware(async (c, next) => {
  const policy = policyFor(c);
  if (policy.public) return next();
  const caller = callerOf(c);
  if (allows(caller.scopes, policy.scope) || (policy.or && allows(caller.scopes, policy.or))) return next();
  const error = new EdgegymError(403, "insufficient_scope", `the token "${caller.name}" lacks the "${policy.scope}" scope this route needs`);
  return refuse(c, error, { "WWW-Authenticate": `Bearer error="insufficient_scope", scope="${policy.scope}"` });
});

const rate = gateway.createMiddleware(async (c, next) => {
  const config = gatewayPorts(c.env).config;
  if (policyFor(c).public || config.RATE_LIMIT_PER_SECOND === 0) return next();
  const caller = callerOf(c);
  const answer = await c.env.RATE_LIMITS.getByName(caller.name).take(config.RATE_LIMIT_PER_SECOND, config.RATE_LIMIT_BURST);
  if (answer.ok) return next();
  const error = new EdgegymError(
    429,
    "rate_limited",
    `the token "${caller.name}" is over its rate limit (${config.RATE_LIMIT_PER_SECOND} requests/s, bursts of ${config.RATE_LIMIT_BURST}); retry after ${answer.retryAfterSeconds} s`,
  );
  return refuse(c, error, { "Retry-After": String(answer.retryAfterSeconds) });
});

const body = gateway.createMiddleware(async (c, next) => {
  const policy = policyFor(c);
  if (policy.public) return next();
  // Before admission: a JSON body is in (or refused) before its request may take a slot.
  await limitBody(c, policy.body, gatewayPorts(c.env).config, next);
});

/** The tenant's in_flight quota (429) and the deployment's MAX_IN_FLIGHT (503), held until the answer is ready. */
const admission = gateway.createMiddleware(async (c, next) => {
  if (!policyFor(c).admit) return next();
  const slot = await admitOne(c);
  if (!slot.ok) return refuse(c, slot.error, { "Retry-After": String(slot.retryAfterSeconds) });
  try {
    await next();
  } finally {
    slot.release();
  }
});

/** Mounted once, before every route: `app.use(...guards)`. */
export const guards = [token, scope, rate, body, admission];

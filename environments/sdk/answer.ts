// One operation of a resources server, answered over HTTP for an outside caller: session id in, cookie and header out.
import type { Context } from "hono";
import { setCookie } from "hono/cookie";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { EnvironmentEnv } from "../../contracts/env.generated.js";
import type { SessionOperation } from "../../contracts/rpc.js";
import { readJson } from "../../http/errors.js";
import { runOperation } from "./run.js";
import { SESSION_COOKIE, SESSION_HEADER, newSessionId, sessionIdOf } from "./session.js";
import type { Environment } from "./types.js";

export type AppContext = Context<{ Bindings: EnvironmentEnv }>;

export async function answerOperation(c: AppContext, environment: Environment, operation: SessionOperation): Promise<Response> {
  const body = await readJson(c);
  const carried = sessionIdOf(c);
  const sessionId = carried ?? newSessionId();
  // An outside caller's body is checked whole (trusted: false).
  const outcome = await runOperation(environment, c.env, operation, body, sessionId, false, c.req.raw.signal);
  c.header(SESSION_HEADER, sessionId);
  if (!carried) setCookie(c, SESSION_COOKIE, sessionId, { path: "/", httpOnly: true, sameSite: "Lax" });
  return c.json(outcome.body, outcome.status as ContentfulStatusCode);
}

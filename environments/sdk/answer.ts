// One operation of a resources server, answered over HTTP: the session id, its Durable Object or a local run, the cookie.
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { EnvironmentEnv } from "../../functions/bindings.js";
import { readJson } from "../../functions/shared/http.js";
import type { ToolContext } from "./define.js";
import type { EnvironmentSessionRpc } from "./durable-types.js";
import type { AnyOperation } from "./gymnasium-perform.js";
import { judgeThrough } from "./judge.js";
import { noState, type Outcome } from "./perform.js";
import { SESSION_HEADER, newSessionId, sessionCookie, sessionIdOf } from "./session.js";

const OPERATION_TIMEOUT_MS = 60_000;

export async function answerOperation(
  c: Context<{ Bindings: EnvironmentEnv }>,
  environment: { name: string; stateful: boolean },
  operation: AnyOperation,
  runLocally: (body: unknown, ctx: ToolContext<unknown>) => Promise<Outcome>,
): Promise<Response> {
  const body = await readJson(c);
  const carried = sessionIdOf(c.req.raw.headers);
  const sessionId = carried ?? newSessionId();
  let outcome: Outcome;
  if (environment.stateful) {
    if (!c.env.SESSIONS) throw new Error(`${environment.name} is stateful but its Worker has no SESSIONS binding`);
    const stub = c.env.SESSIONS.get(c.env.SESSIONS.idFromName(sessionId)) as unknown as EnvironmentSessionRpc;
    outcome = await stub.perform(operation, body, sessionId);
  } else {
    const signal = AbortSignal.any([c.req.raw.signal, AbortSignal.timeout(OPERATION_TIMEOUT_MS)]);
    outcome = await runLocally(body, { sessionId, state: noState, signal, judge: judgeThrough(c.env.JUDGE, signal) });
  }
  c.header(SESSION_HEADER, sessionId);
  if (!carried) c.header("set-cookie", sessionCookie(sessionId));
  return c.json(outcome.body, outcome.status as ContentfulStatusCode);
}

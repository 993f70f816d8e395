// One operation of a resources server, answered over HTTP for an outside caller: session id in, cookie and header out.
import type { Context } from "hono";
import { setCookie } from "hono/cookie";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { EnvironmentBindings } from "./bindings.js";
import type { Outcome, SessionOperation } from "../../contracts/rpc.js";
import { readJson } from "../../http/errors.js";
import { continueSession, openSession, type SessionCall } from "./run.js";
import { httpOwner, overHttps, SESSION_COOKIE, SESSION_HEADER, sessionIdOf } from "./session.js";
import type { Environment } from "./types.js";

export type AppContext = Context<{ Bindings: EnvironmentBindings }>;

/** Operations that open a session: they always get a new id, whatever the request carried. */
const OPENING = new Set<SessionOperation["kind"]>(["seed_session", "reset"]);

/** What a route may add to the answer of a session it opened (the seed's MCP metadata). */
export type OnOpened = (outcome: Outcome, sessionId: string, body: unknown) => Promise<Outcome>;

export async function answerOperation(c: AppContext, environment: Environment, operation: SessionOperation, onOpened?: OnOpened): Promise<Response> {
  const body = await readJson(c);
  const carried = sessionIdOf(c);
  // An outside caller's body is checked whole (trusted: false); its sessions belong to its token.
  const call: SessionCall = { environment, env: c.env, operation, body, owner: httpOwner(c), trusted: false, signal: c.req.raw.signal };
  let outcome: Outcome;
  if (OPENING.has(operation.kind) || carried === undefined) {
    // A call without a session (a /verify on its own, as NeMo Gym allows) runs in a new one, like a seed would open.
    const opened = await openSession(call);
    c.header(SESSION_HEADER, opened.sessionId);
    // Secure when the caller came over HTTPS, so the id never travels in the clear afterwards.
    setCookie(c, SESSION_COOKIE, opened.sessionId, { path: "/", httpOnly: true, sameSite: "Lax", secure: overHttps(c) });
    outcome = onOpened ? await onOpened(opened, opened.sessionId, body) : opened;
  } else {
    outcome = await continueSession(call, carried);
    if (outcome.status < 400) c.header(SESSION_HEADER, carried);
  }
  return c.json(outcome.body, outcome.status as ContentfulStatusCode);
}

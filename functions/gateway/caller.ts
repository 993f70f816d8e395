// The gateway's per-request data in Hono's typed context: who a request comes from (once its token is checked) and its id.
import type { Context } from "hono";
import { createFactory } from "hono/factory";
import type { Scope } from "../../contracts/tokens.js";
import { EdgegymError } from "../../protocol/index.js";
import type { GatewayBindings } from "./bindings.js";

export interface Caller {
  /** The token's name (several tokens may share it while one is rotated): the identity in logs, sessions and uploads. */
  name: string;
  scopes: readonly Scope[];
}

/** The gateway's Hono environment: its bindings, and what the request id and token check middlewares set. */
export interface GatewayContext {
  Bindings: GatewayBindings;
  Variables: {
    /** Set by the token check (auth.ts); absent on public routes. */
    caller?: Caller;
    /** Set first of all (request-id.ts): the caller's x-request-id when well-formed, else a new one. */
    requestId: string;
  };
}

/** Middleware and apps typed by the gateway's context. */
export const gateway = createFactory<GatewayContext>();

/** The request's id, for the envelopes the gateway makes (its error handler, the guards) to write in as they are made. */
export function requestIdOf(c: Context<GatewayContext>): string {
  return c.get("requestId");
}

/** The authenticated caller; only routes behind the token check ask for it. */
export function callerOf(c: Context<GatewayContext>): Caller {
  const caller = c.get("caller");
  if (!caller) throw new EdgegymError(500, "internal_error", "no authenticated caller for this route");
  return caller;
}

// Who a request comes from, once its token is checked: the token's name and scopes, kept beside the request's context.
import type { Context } from "hono";
import type { Scope } from "../../contracts/tokens.js";
import { EdgegymError } from "../../protocol/index.js";

export interface Caller {
  /** The token's name (several tokens may share it while one is rotated): the identity in logs, sessions and uploads. */
  name: string;
  scopes: readonly Scope[];
}

// Kept by context, not in Hono's typed variables, so the handlers other files declare need no new context type.
const callers = new WeakMap<Context, Caller>();
const requestIds = new WeakMap<Context, string>();

export function setCaller(c: Context, caller: Caller): void {
  callers.set(c, caller);
}

/** The authenticated caller; only routes behind the token check ask for it. */
export function callerOf(c: Context): Caller {
  const caller = callers.get(c);
  if (!caller) throw new EdgegymError(500, "internal_error", "no authenticated caller for this route");
  return caller;
}

export function maybeCallerOf(c: Context): Caller | undefined {
  return callers.get(c);
}

export function setRequestId(c: Context, id: string): void {
  requestIds.set(c, id);
}

export function requestIdOf(c: Context): string | undefined {
  return requestIds.get(c);
}

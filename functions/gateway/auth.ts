// Bearer tokens with scopes: a missing or unknown token is a 401 with WWW-Authenticate, a token without the scope a 403.
import type { Context, MiddlewareHandler } from "hono";
import { bearerAuth } from "hono/bearer-auth";
import type { TokenEntry } from "../../contracts/tokens.js";
import { EdgegymError } from "../../protocol/index.js";
import { type Caller, type GatewayContext, requestIdOf } from "./caller.js";

/** A 401's envelope, made per request: the request id is written in as it is made. */
const envelope = (code: string, message: string) => (c: Context<GatewayContext>) => new EdgegymError(401, code, message).toEnvelope(requestIdOf(c));

async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * Tokens by the SHA-256 of their value: a presented token is hashed once and looked up, so no comparison ever runs
 * over the secret itself (what a lookup's timing could tell is about a hash, which says nothing of a token).
 */
function tokenIndex(entries: readonly TokenEntry[]): Promise<Map<string, Caller>> {
  return Promise.all(entries.map(async (entry) => [await sha256Hex(entry.token), { name: entry.name, scopes: entry.scopes }] as const)).then(
    (pairs) => new Map(pairs),
  );
}

/** One checker per token list (per isolate): hono parses the header and answers 401 with WWW-Authenticate. */
const checkers = new WeakMap<readonly TokenEntry[], MiddlewareHandler>();

function checker(entries: readonly TokenEntry[]): MiddlewareHandler {
  let check = checkers.get(entries);
  if (!check) {
    const index = tokenIndex(entries);
    check = bearerAuth({
      verifyToken: async (token, c) => {
        const caller = (await index).get(await sha256Hex(token));
        if (caller) c.set("caller", caller);
        return caller !== undefined;
      },
      noAuthenticationHeader: { message: envelope("unauthorized", "missing bearer token (Authorization: Bearer <token>)") },
      invalidAuthenticationHeader: { message: envelope("unauthorized", "the Authorization header is not `Bearer <token>`") },
      invalidToken: { message: envelope("unauthorized", "the bearer token is not valid") },
    });
    checkers.set(entries, check);
  }
  return check;
}

/** Checks the bearer token against `entries`, then calls `next` with the caller known. */
export function authenticate(c: Context<GatewayContext>, entries: readonly TokenEntry[], next: () => Promise<void>): Promise<Response | undefined> {
  return checker(entries)(c, next) as Promise<Response | undefined>;
}

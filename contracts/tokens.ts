// The gateway's bearer tokens: `name:token:scope+scope` entries, several at once so a token can be rotated under its name.
import { z } from "zod";

/**
 * What a token may do: `run` rollouts and environments, `jobs` and uploads, the `model` routes, `read` its name's jobs and
 * uploads (starting nothing); `jobs` includes `read`; `admin` may do everything, on every name's jobs.
 */
export const Scope = z.enum(["run", "jobs", "read", "model", "admin"]);
export type Scope = z.infer<typeof Scope>;

/** A token's name: who it stands for in logs, session bindings and upload keys (never the token itself). */
const TOKEN_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
/** RFC 6750's token68 characters, as hono/bearer-auth accepts them. */
const TOKEN_VALUE = /^[A-Za-z0-9._~+/-]+=*$/;

/** The shortest token accepted: a guessable one is no secret (32 random base64url characters carry 192 bits). */
export const MIN_TOKEN_LENGTH = 32;

export interface TokenEntry {
  name: string;
  token: string;
  scopes: Scope[];
}

/** An entry that cannot be used; says which entry and why, never showing the token. */
export class TokenConfigError extends Error {
  override name = "TokenConfigError";
}

/** A comma-separated variable's entries (`API_TOKENS`, `TENANT_QUOTAS`), each with how an error names it. */
export function configEntries(text: string): { part: string; where: string }[] {
  return text
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part, i) => ({ part, where: `entry ${i + 1}` }));
}

/**
 * `API_TOKENS`: comma-separated `name:token:scopes` entries, scopes joined by `+` (`trainer:<32+ characters>:run+model`).
 * Two entries may share a name (the old and the new token while rotating); a token may appear only once.
 */
export function parseApiTokens(text: string): TokenEntry[] {
  const entries: TokenEntry[] = [];
  const seen = new Set<string>();
  configEntries(text).forEach(({ part, where }) => {
    const fields = part.split(":");
    if (fields.length !== 3) throw new TokenConfigError(`${where} is not name:token:scopes (scopes joined by +, e.g. trainer:<token>:run+model)`);
    const [name = "", token = "", scopeText = ""] = fields;
    if (!TOKEN_NAME.test(name)) throw new TokenConfigError(`${where}: the name must be 1-64 of A-Z a-z 0-9 _ . -`);
    if (!TOKEN_VALUE.test(token)) throw new TokenConfigError(`${where} ("${name}"): the token must be made of A-Z a-z 0-9 - . _ ~ + / (then = padding)`);
    if (token.length < MIN_TOKEN_LENGTH) {
      throw new TokenConfigError(
        `${where} ("${name}"): the token is ${token.length} characters; at least ${MIN_TOKEN_LENGTH} are needed (\`npx edgegym token\` makes one)`,
      );
    }
    if (seen.has(token)) throw new TokenConfigError(`${where} ("${name}"): the same token appears twice`);
    seen.add(token);
    const scopes = scopeText.split("+").map((scope) => Scope.safeParse(scope.trim()));
    const bad = scopes.find((scope) => !scope.success);
    if (bad || scopes.length === 0) {
      throw new TokenConfigError(`${where} ("${name}"): scopes are ${Scope.options.join(", ")} joined by +`);
    }
    entries.push({ name, token, scopes: [...new Set(scopes.map((scope) => scope.data as Scope))] });
  });
  return entries;
}

/** `API_TOKENS` as a config variable: unset or empty means no token, so every route but /health answers 401. */
export const ApiTokens = z.preprocess((value, ctx) => {
  if (typeof value !== "string") return [];
  try {
    return parseApiTokens(value);
  } catch (error) {
    ctx.issues.push({ code: "custom", message: error instanceof Error ? error.message : String(error), input: "(hidden)" });
    return z.NEVER;
  }
}, z.array(z.custom<TokenEntry>()));

/** Whether a token with these scopes may use a route that needs `scope`. */
export function allows(scopes: readonly Scope[], scope: Scope): boolean {
  return scopes.includes("admin") || scopes.includes(scope) || (scope === "read" && scopes.includes("jobs"));
}

// The MCP session token (contracts/mcp.ts McpTokenClaims): `<claims, base64url JSON>.<HMAC-SHA256>`, signed with
// SESSION_SECRET under a purpose label of its own, so a token can never pass as a session id nor the reverse.
import type { McpRefusal, McpTokenClaims } from "../../../contracts/mcp.js";
import { base64url, fromBase64url, keyFor } from "../session-id.js";

/** Mixed into every MAC: a token's signature is worth nothing anywhere else SESSION_SECRET signs. */
const PURPOSE = "edgegym/mcp-session-token/v1";
const TOKEN = /^([A-Za-z0-9_-]{1,2048})\.([A-Za-z0-9_-]{43})$/;

function signed(payload: string): Uint8Array {
  return new TextEncoder().encode(`${PURPOSE}\n${payload}`);
}

/** A token for these claims. */
export async function mintMcpToken(secret: string, claims: McpTokenClaims): Promise<string> {
  const payload = base64url(new TextEncoder().encode(JSON.stringify(claims)));
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", await keyFor(secret), signed(payload)));
  return `${payload}.${base64url(mac)}`;
}

export type TokenCheck = { ok: true; claims: McpTokenClaims } | { ok: false; refusal: McpRefusal; message: string };

function isClaims(value: unknown): value is McpTokenClaims {
  if (!value || typeof value !== "object") return false;
  const claims = value as Record<string, unknown>;
  const tools = claims.tools;
  return (
    typeof claims.sid === "string" &&
    typeof claims.env === "string" &&
    typeof claims.exp === "number" &&
    (tools === undefined || (Array.isArray(tools) && tools.every((tool) => typeof tool === "string")))
  );
}

/** Whether `token` was minted with this secret for `environment` and is still alive (ms epoch `now`). */
export async function checkMcpToken(secret: string, environment: string, token: string | undefined, now = Date.now()): Promise<TokenCheck> {
  if (!token) return { ok: false, refusal: "mcp_token_missing", message: "missing X-NeMo-Gym-Session-Token (it comes from /seed_session's `mcp.headers`)" };
  const invalid: TokenCheck = { ok: false, refusal: "mcp_token_invalid", message: "invalid X-NeMo-Gym-Session-Token: not one this deployment minted" };
  const match = TOKEN.exec(token);
  if (!match) return invalid;
  const [, payload = "", mac = ""] = match;
  const macBytes = fromBase64url(mac);
  // One spelling only (see session-id.ts): the MAC must re-encode to itself.
  if (base64url(macBytes) !== mac) return invalid;
  if (!(await crypto.subtle.verify("HMAC", await keyFor(secret), macBytes, signed(payload)))) return invalid;
  let claims: unknown;
  try {
    claims = JSON.parse(new TextDecoder().decode(fromBase64url(payload)));
  } catch {
    return invalid;
  }
  if (!isClaims(claims)) return invalid;
  if (claims.env !== environment) {
    return {
      ok: false,
      refusal: "mcp_token_other_environment",
      message: `this MCP session token was minted for environment "${claims.env}", not "${environment}"`,
    };
  }
  if (now >= claims.exp * 1000)
    return { ok: false, refusal: "mcp_token_expired", message: "the MCP session token expired with its session; seed a new session" };
  return { ok: true, claims };
}

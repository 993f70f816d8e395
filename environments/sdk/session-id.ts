// Session ids that cannot be forged: `<random>.<opened>.<HMAC-SHA256 over environment, random, opened, rollout, token name>`.
import type { SessionOwner } from "../../contracts/rpc.js";

/** A well-formed id: 16 random bytes, the opening second in base 36, a 32-byte MAC; all base64url. */
const SESSION_ID = /^([A-Za-z0-9_-]{22})\.([0-9a-z]{1,11})\.([A-Za-z0-9_-]{43})$/;

const keys = new Map<string, Promise<CryptoKey>>();

/** The HMAC key for a secret, imported once per isolate. */
export function keyFor(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
    keys.set(secret, key);
  }
  return key;
}

export function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function fromBase64url(text: string): Uint8Array {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/**
 * What is signed: the environment's name, the id's own parts and its owner, as JSON so no field can run into the next.
 * The name binds the id to its environment: environments that share a secret still refuse each other's ids.
 */
function signed(environment: string, random: string, opened: string, owner: SessionOwner): Uint8Array {
  return new TextEncoder().encode(JSON.stringify([environment, random, opened, owner.rollout, owner.token]));
}

/** A new session id of `environment` for `owner`, opened now. */
export async function mintSessionId(secret: string, environment: string, owner: SessionOwner, now = Date.now()): Promise<string> {
  const random = base64url(crypto.getRandomValues(new Uint8Array(16)));
  const opened = Math.floor(now / 1000).toString(36);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", await keyFor(secret), signed(environment, random, opened, owner)));
  return `${random}.${opened}.${base64url(mac)}`;
}

/**
 * Whether `id` was minted with this secret by `environment` for exactly this owner; a forged id, or another
 * environment's, rollout's or token's, is not. On success, when it was opened (ms since the epoch). The MAC is checked
 * with WebCrypto's verify (constant time), and only in its one spelling: 43 base64url characters carry 258 bits for the
 * MAC's 256, so the last character has 3 siblings that decode to the same bytes; the id must re-encode to itself.
 */
export async function checkSessionId(
  secret: string,
  environment: string,
  id: string,
  owner: SessionOwner,
): Promise<{ ok: true; openedAt: number } | { ok: false }> {
  const match = SESSION_ID.exec(id);
  if (!match) return { ok: false };
  const [, random = "", opened = "", mac = ""] = match;
  const macBytes = fromBase64url(mac);
  if (base64url(macBytes) !== mac) return { ok: false };
  const valid = await crypto.subtle.verify("HMAC", await keyFor(secret), macBytes, signed(environment, random, opened, owner));
  return valid ? { ok: true, openedAt: Number.parseInt(opened, 36) * 1000 } : { ok: false };
}

/** Ids checked for our own Workers' calls, per secret: exactly what was checked (environment, id, owner) → its opening. */
const checked = new Map<string, Map<string, number>>();
/** Ids remembered per secret at most (the oldest forgotten first): a rollout's calls all come within its lifetime. */
export const CHECKED_KEPT = 4_096;

/**
 * checkSessionId for an internal caller (the agent's RPC, whose every tool call of a rollout carries the same id): an id
 * that passed once for exactly this environment and owner is not MAC-checked again. Only a success is remembered, keyed
 * by every input the MAC covers, so any other id or owner is checked in full; outside callers never come here.
 */
export async function checkSessionIdOnce(
  secret: string,
  environment: string,
  id: string,
  owner: SessionOwner,
): Promise<{ ok: true; openedAt: number } | { ok: false }> {
  let known = checked.get(secret);
  if (!known) checked.set(secret, (known = new Map()));
  const key = JSON.stringify([environment, id, owner.rollout, owner.token]);
  const openedAt = known.get(key);
  if (openedAt !== undefined) return { ok: true, openedAt };
  const check = await checkSessionId(secret, environment, id, owner);
  if (check.ok) {
    if (known.size >= CHECKED_KEPT) known.delete(known.keys().next().value!);
    known.set(key, check.openedAt);
  }
  return check;
}

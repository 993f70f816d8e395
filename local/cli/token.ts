// Which bearer token the CLI uses: --token / EDGEGYM_TOKEN; for an emulation it starts itself, the dev token it made;
// against a running `npm run dev`, the token that run saved in .edgegym/dev-token.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseApiTokens } from "../../contracts/tokens.js";
import type { Local } from "../emulation.js";
import { STATE_DIR } from "../paths.js";

export const DEV_TOKEN_FILE = path.join(STATE_DIR, "dev-token");

/**
 * What a self-started emulation accepts: API_TOKENS as set; else the caller's own token (EDGEGYM_TOKEN or --token) as
 * an admin token; else nothing, and startLocal makes up a dev token for the run.
 */
export function localAuth(token: string | undefined, env: NodeJS.ProcessEnv = process.env): { apiTokens?: string } {
  if (env.API_TOKENS) return { apiTokens: env.API_TOKENS };
  if (token) return { apiTokens: `dev:${token}:admin` };
  return {};
}

/** The token to talk to an emulation the command started: the caller's, the dev token, or the first of API_TOKENS. */
export function tokenForLocal(local: Local, token: string | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (token) return token;
  if (local.token) return local.token;
  return env.API_TOKENS ? parseApiTokens(env.API_TOKENS)[0]?.token : undefined;
}

/** The token `npm run dev` saved, for commands pointed at it without --token. */
export function savedDevToken(): string | undefined {
  return existsSync(DEV_TOKEN_FILE) ? readFileSync(DEV_TOKEN_FILE, "utf8").trim() || undefined : undefined;
}

export function saveDevToken(token: string): void {
  mkdirSync(STATE_DIR, { recursive: true });
  writeFileSync(DEV_TOKEN_FILE, `${token}\n`, { mode: 0o600 });
}

export function forgetDevToken(token: string): void {
  // Only our own: another `npm run dev` may have written its token since.
  if (savedDevToken() === token) rmSync(DEV_TOKEN_FILE, { force: true });
}

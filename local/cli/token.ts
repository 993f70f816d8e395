// Which bearer token the CLI uses: --token / EDGEGYM_TOKEN; for an emulation it starts itself, the dev token it made;
// against a running `edgegym dev`, the token that run saved in its state folder (.edgegym/dev-token unless --state-dir).
import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { parseApiTokens } from "../../contracts/tokens.js";
import type { Local } from "../emulation.js";
import { STATE_DIR } from "../paths.js";
import { privateDir, writePrivateFile } from "../private-files.js";

/** Where `edgegym dev` saves its dev token, in a state folder. */
export const devTokenFile = (stateDir: string = STATE_DIR): string => path.join(stateDir, "dev-token");
export const DEV_TOKEN_FILE = devTokenFile();

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

/** The token `edgegym dev` saved in `stateDir`, for commands pointed at it without --token. */
export function savedDevToken(stateDir: string = STATE_DIR): string | undefined {
  const file = devTokenFile(stateDir);
  return existsSync(file) ? readFileSync(file, "utf8").trim() || undefined : undefined;
}

/** Saves the token in `stateDir` (0700), in a file only its user may read (0600); returns the file. */
export function saveDevToken(token: string, stateDir: string = STATE_DIR): string {
  privateDir(stateDir);
  const file = devTokenFile(stateDir);
  writePrivateFile(file, `${token}\n`);
  return file;
}

export function forgetDevToken(token: string, stateDir: string = STATE_DIR): void {
  // Only our own: another `edgegym dev` may have written its token since.
  if (savedDevToken(stateDir) === token) rmSync(devTokenFile(stateDir), { force: true });
}

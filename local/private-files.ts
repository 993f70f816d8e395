// Local state kept to its user: folders 0700 and files 0600, made so and tightened when found looser (tokens, secrets,
// sessions' state and logs may hold what another user of the machine must not read).
import { chmodSync, lstatSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** `dir` made (with its missing parents) or found, then 0700. */
export function privateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  chmodSync(dir, PRIVATE_DIR_MODE);
}

/** `text` written to `file`, which is 0600 whether it is new or was there (a mode given to writeFileSync holds only for a new one). */
export function writePrivateFile(file: string, text: string): void {
  writeFileSync(file, text, { mode: PRIVATE_FILE_MODE });
  chmodSync(file, PRIVATE_FILE_MODE);
}

/** Every folder under `dir` (itself included) 0700 and every file 0600; links are left as they are, and not followed. */
export function tightenTree(dir: string): void {
  privateDir(dir);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const inner = path.join(dir, entry.name);
    if (entry.isDirectory()) tightenTree(inner);
    else if (entry.isFile() && (lstatSync(inner).mode & 0o777) !== PRIVATE_FILE_MODE) chmodSync(inner, PRIVATE_FILE_MODE);
  }
}

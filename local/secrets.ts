// Secrets the local emulation makes up when none are given: a dev bearer token, and the key session ids are signed with.
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { PRIVATE_FILE_MODE, privateDir, writePrivateFile } from "./private-files.js";

/** A fresh bearer token for one local run. */
export function devToken(): string {
  return `edgegym_dev_${randomBytes(24).toString("base64url")}`;
}

/**
 * The session signing key: kept in `<persist>/session-secret` when state persists (a session opened before a restart
 * stays usable, as its state does), a new one per run otherwise.
 */
export function sessionSecret(persist: string | undefined): string {
  if (!persist) return randomBytes(32).toString("hex");
  const file = path.join(persist, "session-secret");
  privateDir(persist);
  if (existsSync(file)) {
    chmodSync(file, PRIVATE_FILE_MODE);
    return readFileSync(file, "utf8").trim();
  }
  const secret = randomBytes(32).toString("hex");
  writePrivateFile(file, `${secret}\n`);
  return secret;
}

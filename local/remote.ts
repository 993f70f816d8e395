// The remote environments of a local run (issue 24): read from edgegym.remote.json (or EDGEGYM_REMOTE_CONFIG), each a
// generated Worker started beside the native ones, its auth secrets taken from this process's environment by name.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { RemoteEnvironmentDeployment } from "../contracts/remote.js";
import { parseRemoteFile, RemoteConfigError, secretFields } from "../environments/sdk/remote/config.js";
import { writeRemoteEntry } from "../infra/remote.js";
import { PROJECT_ROOT, shownPath } from "./paths.js";

export const REMOTE_FILE = "edgegym.remote.json";

/** Which file configures the run's remote environments: the option, EDGEGYM_REMOTE_CONFIG, else ./edgegym.remote.json if present. */
export function remoteConfigFile(given: string | false | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (given === false) return undefined;
  const named = given ?? env.EDGEGYM_REMOTE_CONFIG;
  if (named) return path.resolve(named);
  const found = path.join(process.cwd(), REMOTE_FILE);
  return existsSync(found) ? found : undefined;
}

/** The file's entries, checked against the native environments' names. */
export function loadRemotes(file: string, native: readonly string[]): RemoteEnvironmentDeployment[] {
  if (!existsSync(file)) throw new RemoteConfigError([`${shownPath(file)}: no such file`]);
  return parseRemoteFile(readFileSync(file, "utf8"), shownPath(file), native);
}

/** The emulation's extra environments for them: entries written, each secret read from `env` (missing ones named). */
export function remoteWorkers(
  deployments: readonly RemoteEnvironmentDeployment[],
  env: NodeJS.ProcessEnv = process.env,
  root = PROJECT_ROOT,
): { name: string; entry: string; vars: Record<string, string> }[] {
  const missing: string[] = [];
  const workers = deployments.map(({ config, origin }) => {
    const vars: Record<string, string> = {};
    for (const { secret, field, optional } of secretFields(config)) {
      const value = env[secret];
      if (value) vars[secret] = value;
      else if (!optional) missing.push(`${origin}.${field}: the secret ${secret} is not set in the environment`);
    }
    return { name: config.name, entry: writeRemoteEntry(root, config), vars };
  });
  if (missing.length) throw new RemoteConfigError(missing);
  return workers;
}

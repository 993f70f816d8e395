// Which of an emulation's environments declare a sandbox, so the local sandbox service starts only when one does.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { PROJECT_ROOT } from "../paths.js";

/**
 * Whether environments/<name> declares `sandbox` in defineEnvironment. Its index is read first and imported only when it
 * mentions a sandbox at all, so the common case costs a file read.
 */
export async function declaresSandbox(name: string, root = PROJECT_ROOT): Promise<boolean> {
  const entry = path.join(root, "environments", name, "index.ts");
  if (!existsSync(entry) || !/\bsandbox\b/.test(readFileSync(entry, "utf8"))) return false;
  const module = (await import(pathToFileURL(entry).href)) as { default?: { sandbox?: unknown } };
  return module.default?.sandbox !== undefined;
}

/** True when any of the native environments, or a test's own environment marked `sandbox`, declares one. */
export async function anyDeclaresSandbox(native: string[], extra: { name: string; sandbox?: boolean }[], root = PROJECT_ROOT): Promise<boolean> {
  if (extra.some((environment) => environment.sandbox === true)) return true;
  for (const name of native) if (await declaresSandbox(name, root)) return true;
  return false;
}

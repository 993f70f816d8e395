// Resolves a path a caller names inside a sandbox's working directory, refusing anything that leads outside it.
import { lstat, mkdir, realpath } from "node:fs/promises";
import path from "node:path";

export class OutsideSandbox extends Error {
  override name = "OutsideSandbox";
}

/**
 * The host path for `relative` under `work`: no absolute paths, no `..` out, and no symlink (the sandbox's code may
 * plant one) anywhere on the way, so the host never follows the program's links to its own files.
 */
export async function insideWork(work: string, relative: string, create = false): Promise<string> {
  const target = path.resolve(work, relative.replace(/^\/sandbox\//, ""));
  if (path.isAbsolute(relative) && !relative.startsWith("/sandbox/")) throw new OutsideSandbox(`${relative}: absolute paths are outside the sandbox`);
  if (target !== work && !target.startsWith(`${work}${path.sep}`)) throw new OutsideSandbox(`${relative}: outside the sandbox's directory`);
  const parent = path.dirname(target);
  if (create) await mkdir(parent, { recursive: true });
  const realParent = await realpath(parent).catch(() => parent);
  if (realParent !== work && !realParent.startsWith(`${work}${path.sep}`)) throw new OutsideSandbox(`${relative}: leads outside the sandbox's directory`);
  const stat = await lstat(target).catch(() => undefined);
  if (stat?.isSymbolicLink()) throw new OutsideSandbox(`${relative}: a symbolic link (not followed)`);
  return target;
}

// Runs the `edgegym` command as a user does: a real process from the project root.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { PROJECT_ROOT } from "../../local/paths.js";
import { knownTokenFor } from "./local.js";

const exec = promisify(execFile);
const BIN = path.join(PROJECT_ROOT, "bin", "edgegym.js");

/**
 * The child's environment: a command pointed (`--url`) at an emulation this test process started gets its dev token as
 * EDGEGYM_TOKEN, as a user would set it.
 */
export function tokenEnv(args: readonly string[]): NodeJS.ProcessEnv {
  const at = args.indexOf("--url");
  const token = at >= 0 ? knownTokenFor(args[at + 1] ?? "") : undefined;
  return token ? { ...process.env, EDGEGYM_TOKEN: token } : process.env;
}

export async function edgegym(args: string[], timeout = 120_000): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [BIN, ...args], { cwd: PROJECT_ROOT, timeout, env: tokenEnv(args), maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

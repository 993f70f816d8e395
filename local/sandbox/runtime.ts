// The sandbox's runtimes: a Python venv with numpy/scipy/pandas made once under .edgegym/, and the machine's Node.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { STATE_DIR } from "../paths.js";

const exec = promisify(execFile);
const READY = ".edgegym-ready";
export const PYTHON_PACKAGES = ["numpy", "scipy", "pandas"];

/** What a sandbox needs bound in and on its PATH to find its runtimes. */
export interface Runtimes {
  binds: string[];
  pathVar: string;
}

/** Raised once, with what to install, when the machine lacks something the project cannot set up itself. */
export class MissingRuntime extends Error {
  override name = "MissingRuntime";
}

/** Progress lines for the one-time setup (silent by default). */
export type SetupLog = (line: string) => void;

let made: Promise<Runtimes> | undefined;

/**
 * The runtimes, made on first use (once per process; the venv once per machine), under `dir`: .edgegym/sandbox, or
 * EDGEGYM_SANDBOX_RUNTIME_DIR for a venv shared by several checkouts or users.
 */
export function runtimes(log: SetupLog = () => {}, dir = process.env.EDGEGYM_SANDBOX_RUNTIME_DIR || path.join(STATE_DIR, "sandbox")): Promise<Runtimes> {
  made ??= prepare(log, dir).catch((error: unknown) => {
    made = undefined;
    throw error;
  });
  return made;
}

async function prepare(log: SetupLog, dir: string): Promise<Runtimes> {
  const python = process.env.EDGEGYM_SANDBOX_PYTHON ?? "python3";
  let basePrefix: string;
  try {
    basePrefix = (await exec(python, ["-c", "import sys; print(sys.base_prefix)"])).stdout.trim();
  } catch {
    throw new MissingRuntime(
      "The local sandbox needs Python 3 (with venv and pip) and found none on PATH. Install it once, e.g. `sudo apt-get install python3 python3-venv`, then run again.",
    );
  }
  const venv = path.join(dir, "venv");
  if (!existsSync(path.join(venv, READY))) await makeVenv(python, venv, log);
  const nodeDir = path.dirname(process.execPath);
  const binds = [basePrefix, venv, path.join(path.dirname(new URL(import.meta.url).pathname), "driver")];
  if (!nodeDir.startsWith("/usr/")) binds.push(nodeDir);
  return { binds, pathVar: [path.join(venv, "bin"), nodeDir, "/usr/local/bin", "/usr/bin", "/bin"].join(":") };
}

/** Builds the venv beside its final place and renames it there, so a half-made one is never used. */
async function makeVenv(python: string, venv: string, log: SetupLog): Promise<void> {
  log(`Creating the sandbox's Python environment once (${PYTHON_PACKAGES.join(", ")}) in ${venv} …`);
  const staging = `${venv}.${process.pid}.tmp`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(path.dirname(venv), { recursive: true });
  try {
    await exec(python, ["-m", "venv", staging]);
  } catch (error) {
    throw new MissingRuntime(
      `Python 3 could not make a virtual environment (${String(error)}). Install venv once, e.g. \`sudo apt-get install python3-venv\`.`,
    );
  }
  // The staging path is baked into the venv's scripts; pip is run as a module so that does not matter.
  await exec(path.join(staging, "bin", "python"), ["-m", "pip", "install", "--quiet", ...PYTHON_PACKAGES], { timeout: 600_000 });
  await writeFile(path.join(staging, READY), `${new Date().toISOString()}\n`);
  try {
    await rename(staging, venv);
  } catch {
    // Another process finished first: keep theirs.
    await rm(staging, { recursive: true, force: true });
  }
  log("Sandbox Python environment ready.");
}

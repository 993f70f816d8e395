// A fresh clone for the documented commands: the project's files copied to a temp dir (node_modules linked), where
// each command runs as a user types it (bash, cwd at the clone's root), and the processes it started in the background.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PROJECT_ROOT } from "../../local/paths.js";
import { shareSandboxVenv } from "../helpers/clone-state.js";

export interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The shell of a user who set nothing: no token, no gateway URL, no model of their own; wrangler kept offline. */
export function freshEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" };
  for (const name of Object.keys(env)) if (/^(EDGEGYM_|API_TOKENS$|TOKEN$|AWS_)/.test(name) || name.startsWith("npm_")) delete env[name];
  return { ...env, ...extra };
}

/** Copies the project as a clone would have it: its tracked and unignored files, no node_modules, .edgegym or out/
 * (node_modules and the sandbox venv, made once per machine, are linked). */
export function makeClone(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "edgegym-docs-"));
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: PROJECT_ROOT, encoding: "utf8" });
  for (const file of files.split("\0").filter(Boolean)) {
    const from = path.join(PROJECT_ROOT, file);
    try {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      cpSync(from, path.join(dir, file));
    } catch {
      // A file listed but deleted in the working tree: a clone would not have it either.
    }
  }
  symlinkSync(path.join(PROJECT_ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  shareSandboxVenv(dir);
  return dir;
}

export function removeClone(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  rmSync(`${dir}.outside`, { recursive: true, force: true }); // the folder "outside the checkout" some commands run in
}

/** Runs `command` with bash in `cwd`; its exit code and output (a timeout is a null code). */
export function sh(command: string, cwd: string, env: NodeJS.ProcessEnv, timeoutMs = 180_000): Promise<Result> {
  return new Promise((resolve) => {
    const child = spawn("bash", ["-c", command], { cwd, env, detached: true });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => killGroup(child), timeoutMs);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A command started in the background (`… &`): its output so far, and a stop that ends its whole process group. */
export interface Background {
  output(): string;
  /** Resolves with the first match of `pattern` in the output; rejects if the process exits first or time runs out. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function background(command: string, cwd: string, env: NodeJS.ProcessEnv): Background {
  const child = spawn("bash", ["-c", command], { cwd, env, detached: true });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code, signal) => resolve(code ?? (signal ? 128 : null))));
  return {
    output: () => output,
    waitFor: async (pattern, timeoutMs = 90_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const match = pattern.exec(output);
        if (match) return match;
        if (child.exitCode !== null) throw new Error(`\`${command}\` exited with ${child.exitCode} before printing ${pattern}:\n${output}`);
        if (Date.now() > deadline) throw new Error(`\`${command}\` printed no ${pattern} in ${timeoutMs} ms:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    stop: async (signal = "SIGINT") => {
      if (child.exitCode === null && child.signalCode === null) killGroup(child, signal);
      const timer = setTimeout(() => killGroup(child, "SIGKILL"), 20_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM"): void {
  try {
    if (child.pid) process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

export function write(dir: string, file: string, text: string): void {
  mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  writeFileSync(path.join(dir, file), text);
}

export function read(dir: string, file: string): string {
  return readFileSync(path.join(dir, file), "utf8");
}

/** The JSON objects of a JSON Lines file. */
export function jsonl(dir: string, file: string): Record<string, unknown>[] {
  return read(dir, file)
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

// Runs one program to its end in a local sandbox: stdin in, stdout/stderr kept up to the limit, wall time enforced.
import type { RunResult, RunStop } from "../../contracts/sandbox.js";
import type { Limits } from "./limits.js";
import { type JailPlace, killTree, spawnJailed } from "./spawn.js";

/** Keeps the first `limit` bytes of a stream and counts the rest, which it drops (the writer is never blocked). */
export class CappedBuffer {
  readonly #chunks: Buffer[] = [];
  #kept = 0;
  truncated = false;
  constructor(readonly limit: number) {}
  push(chunk: Buffer): void {
    const room = this.limit - this.#kept;
    if (chunk.length > room) this.truncated = true;
    if (room <= 0) return;
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.#chunks.push(part);
    this.#kept += part.length;
  }
  text(): string {
    return Buffer.concat(this.#chunks).toString("utf8");
  }
}

const MEMORY_SIGNS = /MemoryError|Cannot allocate memory|std::bad_alloc|heap out of memory|failed to map segment/;

/** Which limit ended the process, from how it ended (the program's own exit code otherwise). */
export function stopReason(timedOut: boolean, signal: NodeJS.Signals | null, exitCode: number | null, stderr: string): RunStop | undefined {
  if (timedOut) return "wall_timeout";
  // The jail's shell reports the program's fatal signal as 128+n: SIGXCPU (24) at the CPU limit, SIGKILL (9) just past it.
  if (signal === "SIGXCPU" || exitCode === 128 + 24 || exitCode === 128 + 9) return "cpu_timeout";
  if (exitCode !== 0 && MEMORY_SIGNS.test(stderr)) return "memory";
  // SIGXFSZ (25): a file passed the disk limit.
  if (signal !== null || exitCode === 128 + 25) return "killed";
  return undefined;
}

export interface RunInput {
  command: string[];
  stdin?: string;
  env: Record<string, string>;
  limits: Limits;
  signal?: AbortSignal;
}

/** Spawns, feeds stdin, waits for the end or the wall limit (or the caller's signal), and reports. */
export function runJailed(place: JailPlace, input: RunInput): Promise<RunResult> {
  const started = Date.now();
  const child = spawnJailed(place, input.command, input.env, input.limits);
  const stdout = new CappedBuffer(input.limits.outputBytes);
  const stderr = new CappedBuffer(input.limits.outputBytes);
  child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
  child.stdin.on("error", () => {}); // a program that exits without reading its stdin
  child.stdin.end(input.stdin ?? "");
  let timedOut = false;
  const kill = () => {
    timedOut = true;
    killTree(child);
  };
  const timer = setTimeout(kill, input.limits.wallMs);
  input.signal?.addEventListener("abort", kill, { once: true });
  return new Promise((resolve, reject) => {
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      input.signal?.removeEventListener("abort", kill);
      const errText = stderr.text();
      const stopped = stopReason(timedOut, signal, code, errText);
      const result: RunResult = {
        stdout: stdout.text(),
        stderr: errText,
        exitCode: signal !== null || timedOut || (stopped !== undefined && stopped !== "memory") ? null : code,
        truncated: stdout.truncated || stderr.truncated,
        wallMs: Date.now() - started,
      };
      if (stopped) result.stopped = stopped;
      resolve(result);
    });
  });
}

// The bench's child processes: the vLLM simulator (its CPU counted apart) and one emulation host per checkout.
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The checkout this bench script belongs to: its simulator and tsx run every child. */
export const BENCH_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

export type HostRequest = { type: "cpu"; id: number } | { type: "stop" };
export type HostReply = { type: "ready"; url: string } | { type: "cpu"; id: number; micros: number };

const QUIET_ENV = { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" };

function tsx(script: string, args: string[], stdio: "pipe" | "ipc", cwd = BENCH_ROOT): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", script, ...args], {
    cwd,
    env: QUIET_ENV,
    stdio: stdio === "ipc" ? ["ignore", "inherit", "inherit", "ipc"] : ["ignore", "pipe", "inherit"],
  });
}

/** `started`, unless the child exits first: then the start fails instead of hanging. */
async function beforeExit<T>(child: ChildProcess, started: Promise<T>): Promise<T> {
  let onExit: ((code: number | null) => void) | undefined;
  const died = new Promise<never>((_, reject) => {
    onExit = (code) => reject(new Error(`child process ${child.pid} exited (${code}) while starting`));
    child.once("exit", onExit);
  });
  try {
    return await Promise.race([started, died]);
  } finally {
    child.off("exit", onExit!);
  }
}

function stopped(child: ChildProcess): Promise<void> {
  return child.exitCode !== null ? Promise.resolve() : new Promise((resolve) => child.once("exit", () => resolve()));
}

export interface SimulatorProcess {
  pid: number;
  /** OpenAI base URL, ending in /v1. */
  baseUrl: string;
  model: string;
  stop(): Promise<void>;
}

/** `local/simulator/main.ts` of this checkout in its own Node process, zero latency, no request log. */
export async function startSimulatorProcess(): Promise<SimulatorProcess> {
  const child = tsx(path.join(BENCH_ROOT, "local", "simulator", "main.ts"), ["--port", "0", "--quiet", "--model", "edgegym-sim"], "pipe");
  const url = await beforeExit(
    child,
    new Promise<string>((resolve) => {
      let seen = "";
      child.stdout!.on("data", (chunk: Buffer) => {
        seen += chunk.toString("utf8");
        const match = /OpenAI base URL (\S+)\)/.exec(seen);
        if (match) resolve(match[1]!);
      });
    }),
  );
  return {
    pid: child.pid!,
    baseUrl: url,
    model: "edgegym-sim",
    async stop() {
      child.kill("SIGTERM");
      await stopped(child);
    },
  };
}

export interface HostProcess {
  pid: number;
  root: string;
  /** The gateway's base URL. */
  url: string;
  /** The host's own CPU (process.cpuUsage(), user + system), in microseconds. */
  cpuMicros(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * `startLocal` of the checkout at `root`, in a child process (bench/cpu/host.ts) whose working directory is that checkout:
 * Miniflare names the bundles' module paths relative to it, and workerd refuses a path that climbs out with "..".
 */
export async function startHost(root: string, simulator: SimulatorProcess, environments: string[]): Promise<HostProcess> {
  const child = tsx(path.join(BENCH_ROOT, "bench", "cpu", "host.ts"), [root, simulator.baseUrl, simulator.model, environments.join(",")], "ipc", root);
  const waiting = new Map<number, (micros: number) => void>();
  let url: ((value: string) => void) | undefined;
  child.on("message", (message: HostReply) => {
    if (message.type === "ready") url?.(message.url);
    else waiting.get(message.id)?.(message.micros);
  });
  const ready = await beforeExit(child, new Promise<string>((resolve) => (url = resolve)));
  let next = 0;
  return {
    pid: child.pid!,
    root,
    url: ready,
    cpuMicros() {
      const id = next++;
      return new Promise((resolve) => {
        waiting.set(id, (micros) => {
          waiting.delete(id);
          resolve(micros);
        });
        child.send({ type: "cpu", id } satisfies HostRequest);
      });
    },
    async stop() {
      if (child.connected) child.send({ type: "stop" } satisfies HostRequest);
      await stopped(child);
    },
  };
}

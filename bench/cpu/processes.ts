// The bench's child processes: the vLLM simulator (its CPU counted apart) and one emulation host per checkout.
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { LoopReply, LoopRequest } from "../baseline/loop.js";
import type { WorkerCounts } from "../../local/counting.js";
import type { Tally } from "./workload.js";

/** The checkout this bench script belongs to: its simulator and tsx run every child. */
export const BENCH_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

export type HostRequest = { type: "cpu"; id: number } | { type: "counts"; id: number; reset: boolean } | { type: "stop" };
export type HostReply =
  | { type: "ready"; url: string; token?: string }
  | { type: "cpu"; id: number; micros: number }
  | { type: "counts"; id: number; counts: Record<string, WorkerCounts> };

const QUIET_ENV = { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" };

/** Children still running: stopped when this process exits, however it exits, so no simulator outlives a failed bench. */
const children = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of children) child.kill("SIGTERM");
});
// Stopped by bench/run.ts (a scenario past its time) or Ctrl-C: the children go too (a signal skips "exit" otherwise).
for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => process.exit(signal === "SIGINT" ? 130 : 143));

function tsx(script: string, args: string[], stdio: "pipe" | "ipc", cwd = BENCH_ROOT, nodeFlags: string[] = []): ChildProcess {
  const child = spawn(process.execPath, [...nodeFlags, "--import", "tsx", script, ...args], {
    cwd,
    env: QUIET_ENV,
    stdio: stdio === "ipc" ? ["ignore", "inherit", "inherit", "ipc"] : ["ignore", "pipe", "inherit"],
  });
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
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

export interface SimulatorProcessOptions {
  /** Delay per chat completion, as `--latency-ms` takes it (default 0). */
  latencyMs?: number | string;
  /** Node flags for the simulator's process (e.g. a larger heap for tens of thousands of held requests). */
  nodeFlags?: string[];
}

/** `local/simulator/main.ts` of this checkout in its own Node process, zero latency unless asked, no request log. */
export async function startSimulatorProcess(options: SimulatorProcessOptions = {}): Promise<SimulatorProcess> {
  const args = ["--port", "0", "--quiet", "--model", "edgegym-sim", "--latency-ms", String(options.latencyMs ?? 0)];
  const child = tsx(path.join(BENCH_ROOT, "local", "simulator", "main.ts"), args, "pipe", BENCH_ROOT, options.nodeFlags);
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
  /** Headers every gateway call carries: the emulation's bearer token, when it made one up. */
  headers: Record<string, string>;
  /** The host's own CPU (process.cpuUsage(), user + system), in microseconds. */
  cpuMicros(): Promise<number>;
  /** With `countOperations`: every Worker's operation counts since the last reset (local/counting.ts). */
  counts(reset: boolean): Promise<Record<string, WorkerCounts>>;
  stop(): Promise<void>;
}

/**
 * `startLocal` of the checkout at `root`, in a child process (bench/cpu/host.ts) whose working directory is that checkout:
 * Miniflare names the bundles' module paths relative to it, and workerd refuses a path that climbs out with "..".
 */
export interface HostOptions {
  /** Worker variables (startLocal's `vars`); a variable the checkout's Workers do not know is ignored by them. */
  vars?: Record<string, Record<string, string>>;
  nodeFlags?: string[];
  /** Count every Worker's operations (startLocal's countOperations), read through `counts`. */
  countOperations?: boolean;
}

export async function startHost(root: string, simulator: SimulatorProcess, environments: string[], options: HostOptions = {}): Promise<HostProcess> {
  const args = [root, simulator.baseUrl, simulator.model, environments.join(","), JSON.stringify(options.vars ?? {}), options.countOperations ? "count" : ""];
  const child = tsx(path.join(BENCH_ROOT, "bench", "cpu", "host.ts"), args, "ipc", root, options.nodeFlags);
  const waiting = new Map<number, (micros: number) => void>();
  const counting = new Map<number, (counts: Record<string, WorkerCounts>) => void>();
  let url: ((value: { url: string; token?: string }) => void) | undefined;
  child.on("message", (message: HostReply) => {
    if (message.type === "ready") url?.(message);
    else if (message.type === "counts") counting.get(message.id)?.(message.counts);
    else waiting.get(message.id)?.(message.micros);
  });
  const ready = await beforeExit(child, new Promise<{ url: string; token?: string }>((resolve) => (url = resolve)));
  let next = 0;
  return {
    pid: child.pid!,
    root,
    url: ready.url,
    headers: ready.token ? { authorization: `Bearer ${ready.token}` } : {},
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
    counts(reset) {
      const id = next++;
      return new Promise((resolve) => {
        counting.set(id, (counts) => {
          counting.delete(id);
          resolve(counts);
        });
        child.send({ type: "counts", id, reset } satisfies HostRequest);
      });
    },
    async stop() {
      if (child.connected) child.send({ type: "stop" } satisfies HostRequest);
      await stopped(child);
    },
  };
}

export interface BaselineProcess {
  pid: number;
  /** `count` rollouts of a shape (SINGLE_TOOL / TEN_TURNS by name), `concurrency` at once, in the baseline loop. */
  run(shape: string, count: number, concurrency: number): Promise<Tally>;
  stop(): Promise<void>;
}

/** The baseline (c): bench/baseline/loop.ts in its own process, talking to the simulator over HTTP. */
export async function startBaseline(simulator: SimulatorProcess): Promise<BaselineProcess> {
  const child = tsx(path.join(BENCH_ROOT, "bench", "baseline", "loop.ts"), [simulator.baseUrl, simulator.model], "ipc");
  const waiting = new Map<number, (reply: LoopReply) => void>();
  let ready: (() => void) | undefined;
  child.on("message", (message: LoopReply) => {
    if (message.type === "ready") ready?.();
    else waiting.get(message.id)?.(message);
  });
  await beforeExit(child, new Promise<void>((resolve) => (ready = resolve)));
  let next = 0;
  return {
    pid: child.pid!,
    run(shape, count, concurrency) {
      const id = next++;
      return new Promise((resolve, reject) => {
        waiting.set(id, (reply) => {
          waiting.delete(id);
          if (reply.type === "done") resolve(reply.tally);
          else if (reply.type === "failed") reject(new Error(`baseline: ${reply.message}`));
        });
        child.send({ type: "run", id, shape, count, concurrency } satisfies LoopRequest);
      });
    },
    async stop() {
      child.disconnect();
      await stopped(child);
    },
  };
}

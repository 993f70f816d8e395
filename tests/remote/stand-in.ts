// Starts tests/remote/stand_in.py (a NeMo Gym-protocol server in Python's standard library) for a test, and drives its
// fault switch. The process is the test's own: stopped by its pid.
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";

export type FaultMode = "none" | "slow" | "error" | "huge" | "wrong" | "lost";

export interface StandIn {
  url: string;
  fault(mode: FaultMode, options?: { every?: number; ms?: number }): Promise<void>;
  seen(): Promise<{ seen: Record<string, string>[]; tool_calls: number; faulted: number }>;
  stop(): Promise<void>;
}

export async function startStandIn(): Promise<StandIn> {
  const child: ChildProcess = spawn("python3", [path.join(import.meta.dirname, "stand_in.py")], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    child.once("exit", (code) => reject(new Error(`stand_in.py exited (${code}) before listening`)));
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
  });
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    async fault(mode, options = {}) {
      const response = await fetch(`${url}/_fault`, {
        method: "POST",
        body: JSON.stringify({ mode, ...options }),
        headers: { "content-type": "application/json" },
      });
      if (!response.ok) throw new Error(`fault switch answered ${response.status}`);
    },
    async seen() {
      return (await (await fetch(`${url}/_seen`)).json()) as { seen: Record<string, string>[]; tool_calls: number; faulted: number };
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      if (child.pid) process.kill(child.pid, "SIGTERM");
      await exited;
    },
  };
}

/** A loopback port nothing listens on (taken, then released): connections to it are refused. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

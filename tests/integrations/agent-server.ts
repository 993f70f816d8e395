// Starts integrations/nemo_gym/edgegym_agent.py (the NeMo Gym agent server) as a child process for a test, and stops it.
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

export const INTEGRATIONS = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "integrations");
/** No __pycache__ left in the tree by a test run. */
const PYTHON_ENV = { ...process.env, PYTHONDONTWRITEBYTECODE: "1" };

export interface AgentServer {
  host: string;
  port: number;
  /** What it wrote to stderr (its errors), for a failing test to show. */
  stderr(): string;
  stop(): Promise<void>;
}

/** Runs the agent server on a free port with these arguments; resolves once it says where it listens. */
export function startAgentServer(args: string[]): Promise<AgentServer> {
  const child: ChildProcess = spawn("python3", [path.join(INTEGRATIONS, "nemo_gym", "edgegym_agent.py"), "--port", "0", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: PYTHON_ENV,
  });
  let errors = "";
  child.stderr!.on("data", (chunk: Buffer) => (errors += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the agent server exited (${code}) before listening: ${errors}`)));
    const lines = createInterface({ input: child.stdout! });
    lines.once("line", (line) => {
      const { host, port } = JSON.parse(line) as { host: string; port: number };
      resolve({ host, port, stderr: () => errors, stop });
    });
  });
}

/** Runs `python3 -m unittest` over integrations/tests: its exit code and output. */
export function runPythonUnitTests(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn("python3", ["-X", "dev", "-m", "unittest", "discover", "-s", "tests", "-t", "tests", "-v"], { cwd: INTEGRATIONS, env: PYTHON_ENV });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => resolve({ code, output }));
  });
}

/** Runs a Python script of integrations/ to its end: exit code, stdout, stderr. */
export function runPythonScript(script: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn("python3", [path.join(INTEGRATIONS, script), ...args], { env: PYTHON_ENV });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.once("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

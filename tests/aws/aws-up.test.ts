// `edgegym aws up` as the README shows it: started as a child process, its printed variables and commands run as printed
// (the worker, a collect, jobs list), rows × repeats records in the output; then Ctrl-C stops it cleanly.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../local/paths.js";
import { exampleRows } from "./stack.js";

const exec = promisify(execFile);
const BIN = path.join(PROJECT_ROOT, "bin", "edgegym.js");
const SDK_WARNING = /NodeVersionSupportWarning|AWS SDK for JavaScript/;

let dir: string;
let up: ChildProcess;
let upOut = "";
let upErr = "";
let upExited: Promise<number | null>;
const children: ChildProcess[] = [];

/** The printed `export NAME=value` lines, and the printed `npx edgegym …` commands with those variables filled in. */
function printed(text: string): { vars: Record<string, string>; commands: string[][] } {
  const vars = Object.fromEntries([...text.matchAll(/^ {2}export (\w+)=(\S+)$/gm)].map((m) => [m[1]!, m[2]!]));
  const commands = [...text.matchAll(/^ {2}npx edgegym (.+)$/gm)].map((m) =>
    m[1]!.split(" ").map((word) => word.replace(/^\$(\w+)$/, (_, name) => vars[name] ?? word)),
  );
  return { vars, commands };
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "edgegym-aws-up-"));
  const { EDGEGYM_MODEL_URL: _m, EDGEGYM_MODEL: _n, AWS_ENDPOINT_URL: _e, ...env } = process.env;
  up = spawn(process.execPath, [BIN, "aws", "up", "--port", "0"], { cwd: PROJECT_ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  children.push(up);
  up.stderr!.on("data", (chunk: Buffer) => (upErr += chunk.toString()));
  upExited = new Promise((resolve) => up.on("exit", (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    up.on("exit", (code) => reject(new Error(`aws up exited with ${code}: ${upOut}${upErr}`)));
    up.stdout!.on("data", (chunk: Buffer) => {
      upOut += chunk.toString();
      if (/Ctrl-C/.test(upOut)) resolve();
    });
  });
});
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null && child.pid) process.kill(child.pid, "SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

describe("edgegym aws up", () => {
  it("prints what the worker, collect and jobs need; run as printed, collect gets rows × repeats records and the worker counts rollouts", async () => {
    const { vars, commands } = printed(upOut);
    expect(Object.keys(vars)).toEqual(["AWS_ENDPOINT_URL", "EDGEGYM_QUEUE_URL", "EDGEGYM_BUCKET", "EDGEGYM_MODEL_URL", "EDGEGYM_MODEL"]);
    expect(upOut).toMatch(/dead-letter queue: \S+-dlq \(after 5 receives\)/);
    const [worker, collect, list] = commands;
    expect(worker?.[0]).toBe("worker");
    expect(collect?.[0]).toBe("collect");
    expect(list).toEqual(["jobs", "list", "--bucket", vars.EDGEGYM_BUCKET]);
    const env = { ...process.env, ...vars };

    // The worker as printed (a short long-poll so it stops at once).
    const run = spawn(process.execPath, [BIN, ...worker!, "--wait-seconds", "1"], { cwd: PROJECT_ROOT, env, stdio: ["ignore", "ignore", "pipe"] });
    children.push(run);
    let workerErr = "";
    run.stderr!.on("data", (chunk: Buffer) => (workerErr += chunk.toString()));
    const workerExited = new Promise<number | null>((resolve) => run.on("exit", (code) => resolve(code)));

    // collect as printed, its output in a temporary folder.
    const output = path.join(dir, "aws.jsonl");
    const args = collect!.map((word) => (word === "out/aws.jsonl" ? output : word));
    const collected = await exec(process.execPath, [BIN, ...args], { cwd: PROJECT_ROOT, env, timeout: 90_000 });
    const repeats = Number(args[args.indexOf("-n") + 1]);
    const rows = exampleRows("example_single_tool_call");
    const records = readFileSync(output, "utf8").trim().split("\n");
    expect(records).toHaveLength(rows * repeats);
    expect(collected.stdout).toMatch(new RegExp(`rollouts: \\S+ \\(${rows * repeats}\\)`));

    const listed = await exec(process.execPath, [BIN, ...list!], { cwd: PROJECT_ROOT, env });
    // jobs list's table (id, status, progress, done, failed, running, queued, total, …): the job, completed, all done.
    const n = rows * repeats;
    expect(listed.stdout).toMatch(/^id +status +progress +done +failed +running +queued +total /m);
    expect(listed.stdout).toMatch(new RegExp(`^job_\\S+ +completed +100\\.0% +${n} +0 +0 +0 +${n} `, "m"));

    run.kill("SIGTERM");
    expect(await workerExited, workerErr).toBe(0);
    // Its last line counts the rollouts it recorded, not the messages (the job's expand message is one too).
    expect(workerErr.trim().split("\n").at(-1)).toMatch(
      new RegExp(`^worker: ${rows * repeats} done, 0 retried, 0 in flight, 0 errors \\(${rows * repeats + 1} messages received\\)$`),
    );
    expect(workerErr).not.toMatch(/ignores conditional writes/);
    // No AWS SDK Node-version warning on any of them.
    for (const text of [workerErr, collected.stderr, listed.stderr, upErr]) expect(text).not.toMatch(SDK_WARNING);
  });

  it("stops on Ctrl-C: exit 0, says so, and the endpoint is closed", async () => {
    const { vars } = printed(upOut);
    up.kill("SIGINT");
    expect(await upExited).toBe(0);
    expect(upOut).toMatch(/edgegym aws: stopped\n$/);
    await expect(fetch(vars.AWS_ENDPOINT_URL!)).rejects.toThrow();
  });
});

// The local sandbox service run by an ordinary user (not root), as on most developers' machines: sandboxes in
// unprivileged user namespaces, inner root with no capability. Run as root, this file starts the service as `nobody`
// (setpriv); run as anyone else, as that user. Its runtime is a bare venv of Debian's python3 (stdlib only: this is
// about isolation, and makes no minutes-long pip install).
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunRequest, RunResult, SandboxHandle } from "../../contracts/sandbox.js";
import { HttpSandboxProvider } from "../../environments/sdk/sandbox/http-provider.js";
import { PROJECT_ROOT } from "../../local/paths.js";

const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;
const serviceUid = asRoot ? NOBODY : (process.getuid?.() ?? NOBODY);
let dir: string;
let child: ChildProcess;
let provider: HttpSandboxProvider;
let listener: Server;
let port: number;

const signal = () => AbortSignal.timeout(60_000);
const run = (box: SandboxHandle, request: RunRequest): Promise<RunResult> => provider.run(box, request, signal());
const python = (code: string, extra: Omit<RunRequest, "command"> = {}): RunRequest => ({ command: ["python", "-c", code], ...extra });

/** Folders above the checkout that `nobody` may not pass (a CI's 0700 temp folder), opened for passing (o+x) here only. */
const opened: [string, number][] = [];
function letThrough(folder: string): void {
  for (let at = folder; ; at = path.dirname(at)) {
    const mode = statSync(at).mode & 0o7777;
    if (!(mode & 0o001)) {
      chmodSync(at, mode | 0o001);
      opened.push([at, mode]);
    }
    if (at === path.dirname(at)) return;
  }
}

beforeAll(async () => {
  // A real user's checkout is their own; root's may sit where nobody can pass, and the service runs from it.
  if (asRoot) letThrough(PROJECT_ROOT);
  dir = mkdtempSync(path.join(tmpdir(), "edgegym-unprivileged-"));
  chmodSync(dir, 0o755);
  const runtime = path.join(dir, "runtime");
  execFileSync("/usr/bin/python3", ["-m", "venv", "--without-pip", path.join(runtime, "venv")]);
  // What local/sandbox/runtime.ts writes once its venv is complete (numpy & co. are not what this file tests).
  writeFileSync(path.join(runtime, "venv", ".edgegym-ready"), "");
  const boxes = path.join(dir, "boxes");
  mkdirSync(boxes);
  if (asRoot) chownSync(boxes, NOBODY, NOBODY);
  const entry = ["--import", "tsx", path.join(PROJECT_ROOT, "tests", "sandbox", "unprivileged-entry.ts"), boxes];
  const env = { PATH: "/usr/bin:/bin", HOME: dir, EDGEGYM_SANDBOX_RUNTIME_DIR: runtime, EDGEGYM_SANDBOX_PYTHON: "/usr/bin/python3" };
  child = asRoot
    ? spawn("setpriv", [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", process.execPath, ...entry], { cwd: PROJECT_ROOT, env })
    : spawn(process.execPath, entry, { cwd: PROJECT_ROOT, env });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    let err = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const line = /^(http:\S+)\n/.exec(out);
      if (line) resolve(line[1]!);
    });
    child.stderr?.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.on("exit", (code) => reject(new Error(`the service exited (${code}): ${err}`)));
    setTimeout(() => reject(new Error(`no URL from the service in 60 s: ${err}`)), 60_000);
  });
  provider = new HttpSandboxProvider({ kind: "local", url });
  listener = createServer((socket) => socket.end("host says hi\n"));
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  port = (listener.address() as { port: number }).port;
}, 120_000);

afterAll(async () => {
  if (child?.pid !== undefined && child.exitCode === null) {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
  }
  listener?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  for (const [at, mode] of opened.reverse()) chmodSync(at, mode);
});

describe(`the local sandbox service as an ordinary user (uid ${serviceUid})`, () => {
  it("runs a program as the namespace's root holding no capability, in /sandbox", async () => {
    const box = await provider.create({ runtime: "python" }, signal());
    const result = await run(
      box,
      python(
        "import os; s = open('/proc/self/status').read(); print(os.getuid(), os.getcwd(), s.split('CapEff:')[1].split()[0], s.split('NoNewPrivs:')[1].split()[0])",
      ),
    );
    expect(result).toMatchObject({ stdout: "0 /sandbox 0000000000000000 1\n", exitCode: 0 });
    await provider.destroy(box);
  });

  it("cannot write or remount the runtimes, and sees none of the host's files or processes", async () => {
    const box = await provider.create({ runtime: "python" }, signal());
    const script = [
      "touch /usr/edgegym-probe 2>/dev/null && echo wrote-usr",
      "mount -o remount,bind,rw /usr 2>/dev/null && echo remounted",
      "umount /usr 2>/dev/null && echo unmounted",
      "[ -e /etc/passwd ] && echo sees-passwd",
      `[ -e ${PROJECT_ROOT}/package.json ] && echo sees-project`,
      "ls /proc | grep -c '^[0-9]'",
    ].join("; ");
    const result = await run(box, { command: ["sh", "-c", script] });
    // Only the jail's shell, sh, ls and grep: nothing of the host's process table.
    expect(result.stdout.trim()).toMatch(/^\d$/);
    expect(Number(result.stdout.trim())).toBeLessThanOrEqual(6);
    await provider.destroy(box);
  });

  it("has no network: a listener on the host's loopback is out of reach", async () => {
    const box = await provider.create({ runtime: "python" }, signal());
    const code = `import socket\ntry:\n  socket.create_connection(('127.0.0.1', ${port}), timeout=2).recv(64); print('reached')\nexcept OSError as e:\n  print('refused', type(e).__name__)`;
    const result = await run(box, python(code));
    expect(result.stdout).toMatch(/^refused /);
    await provider.destroy(box);
  });

  it("stops a fork storm at the processes limit (40 forks at most, each exits in 2 s)", async () => {
    const box = await provider.create({ runtime: "python" }, signal());
    const code =
      "import os, time\nn = 0\nfor i in range(40):\n  try:\n    if os.fork() == 0:\n      time.sleep(2); os._exit(0)\n    n += 1\n  except OSError as e:\n    print('refused', e.errno); break\nprint(n)";
    const result = await run(box, python(code, { limits: { processes: 12 } }));
    expect(result.stdout).toMatch(/^refused 11\n\d+\n$/);
    expect(Number(result.stdout.split("\n")[1])).toBeLessThan(12);
    await provider.destroy(box);
  });

  it("ends a sleeper at its wall time, and what the sandbox wrote belongs to the service's user on the host", async () => {
    const box = await provider.create({ runtime: "python" }, signal());
    const slept = await run(box, { command: ["sleep", "30"], limits: { wallMs: 1000 } });
    expect(slept).toMatchObject({ exitCode: null, stopped: "wall_timeout" });
    const wrote = await run(box, { command: ["sh", "-c", "echo 42 > answer.txt"] });
    expect(wrote.exitCode).toBe(0);
    expect(new TextDecoder().decode(await provider.readFile(box, "answer.txt", 1024, signal()))).toBe("42\n");
    const [boxDir] = readdirSync(path.join(dir, "boxes"));
    expect(statSync(path.join(dir, "boxes", boxDir!, "work", "answer.txt")).uid).toBe(serviceUid);
    await provider.destroy(box);
  });
});

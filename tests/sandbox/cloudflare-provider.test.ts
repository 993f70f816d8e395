// The Cloudflare provider over a fake of the Sandbox SDK's stub interface (exec, writeFile, mkdir, startProcess, destroy):
// Cloudflare's containers cannot run on this machine, so the fake runs each exec with this machine's bash in a directory of
// its own, as the container's shell would. What is tested is ours: the scripts, limits, paths, the kept-process driver.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { constants } from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import type { SandboxHandle } from "../../contracts/sandbox.js";
import { CloudflareSandboxProvider, type SandboxStub } from "../../environments/sdk/sandbox/cloudflare-provider.js";
import { SandboxError } from "../../environments/sdk/sandbox/errors.js";
import { SandboxConfigError, sandboxProvider, useCloudflareSandboxes } from "../../environments/sdk/sandbox/provider-config.js";

interface Fake {
  provider: CloudflareSandboxProvider;
  workdir: string;
  opened: { id: string; sleepAfter: number }[];
  execs: string[];
  destroyed: string[];
}

const made: { dir: string; children: ChildProcess[] }[] = [];
afterEach(() => {
  for (const { dir, children } of made.splice(0)) {
    for (const child of children) if (child.pid && child.exitCode === null) process.kill(-child.pid, "SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  }
});

/** The SDK's stub, faked: exec runs bash (non-zero exits are answers, not throws, as the SDK's ExecResult), files are files. */
function fake(): Fake {
  const dir = mkdtempSync(path.join(tmpdir(), "edgegym-cf-sandbox-"));
  const workdir = path.join(dir, "workspace");
  const scratch = path.join(dir, "tmp");
  mkdirSync(scratch);
  const children: ChildProcess[] = [];
  made.push({ dir, children });
  const record: Omit<Fake, "provider"> = { workdir, opened: [], execs: [], destroyed: [] };
  const provider = new CloudflareSandboxProvider(
    (id, options): SandboxStub => {
      record.opened.push({ id, sleepAfter: options.sleepAfter });
      return {
        exec: (command, execOptions) =>
          new Promise((resolve) => {
            record.execs.push(command);
            execFile("bash", ["-c", command], { timeout: execOptions?.timeout, maxBuffer: 64 << 20 }, (error, stdout, stderr) => {
              const signal = error?.signal ? constants.signals[error.signal] : undefined;
              const exitCode = !error ? 0 : signal ? 128 + signal : typeof error.code === "number" ? error.code : 1;
              resolve({ exitCode, stdout, stderr });
            });
          }),
        writeFile: async (file, content, options) => writeFileSync(file, options?.encoding === "base64" ? Buffer.from(content, "base64") : content),
        mkdir: async (target) => mkdirSync(target, { recursive: true }),
        startProcess: async (command, options) => {
          const child = spawn("bash", ["-c", command], { detached: true, stdio: "ignore" });
          children.push(child);
          return { id: options?.processId ?? String(child.pid) };
        },
        destroy: async () => {
          record.destroyed.push(id);
        },
      };
    },
    { workdir, scratch },
  );
  return { provider, ...record };
}

const signal = () => AbortSignal.timeout(30_000);

describe("the Cloudflare sandbox provider (a fake of the SDK's stub)", () => {
  it("creates one sandbox per handle (a fresh id, the spec's TTL as sleepAfter), writes its files, runs argv with stdin", async () => {
    const f = fake();
    const handle = await f.provider.create({ runtime: "python", ttlSeconds: 600, files: { "sub/data.txt": "3 4\n" } }, signal());
    expect(handle.provider).toBe("cloudflare");
    expect(handle.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(f.opened[0]).toEqual({ id: handle.id, sleepAfter: 600 });
    expect(readFileSync(path.join(f.workdir, "sub", "data.txt"), "utf8")).toBe("3 4\n");
    const ran = await f.provider.run(
      handle,
      { command: ["python3", "-c", "import sys; a, b = map(int, sys.stdin.read().split()); print(a * b)"], stdin: "6 7\n" },
      signal(),
    );
    expect(ran).toMatchObject({ stdout: "42\n", stderr: "", exitCode: 0, truncated: false });
    expect(ran.stopped).toBeUndefined();
    // The stdin file is gone after the run.
    const other = await f.provider.create({ runtime: "python" }, signal());
    expect(other.id).not.toBe(handle.id);
  });

  it("gives a program only its own environment and working directory, and an argv no shell reinterprets", async () => {
    const f = fake();
    process.env.EDGEGYM_HOST_SECRET = "host";
    try {
      const handle = await f.provider.create({ runtime: "python", env: { GREETING: "hi" } }, signal());
      const ran = await f.provider.run(
        handle,
        { command: ["bash", "-c", 'echo "$GREETING $EXTRA [$EDGEGYM_HOST_SECRET] $(pwd)"'], env: { EXTRA: "x" } },
        signal(),
      );
      expect(ran.stdout).toBe(`hi x [] ${f.workdir}\n`);
      const literal = await f.provider.run(handle, { command: ["echo", "$(touch pwned); 'quoted'"] }, signal());
      expect(literal.stdout).toBe("$(touch pwned); 'quoted'\n");
      await expect(f.provider.readFile(handle, "pwned", 10, signal())).rejects.toMatchObject({ code: "sandbox_refused" });
    } finally {
      delete process.env.EDGEGYM_HOST_SECRET;
    }
  });

  it("stops a program at its wall limit (wall_timeout) and at its CPU limit (cpu_timeout), and reports its own exit code", async () => {
    const f = fake();
    const handle = await f.provider.create({ runtime: "python" }, signal());
    const slow = await f.provider.run(handle, { command: ["sleep", "5"], limits: { wallMs: 500 } }, signal());
    expect(slow).toMatchObject({ exitCode: null, stopped: "wall_timeout" });
    expect(slow.wallMs).toBeLessThan(4000);
    const spin = await f.provider.run(handle, { command: ["python3", "-c", "while True: pass"], limits: { cpuSeconds: 1, wallMs: 60_000 } }, signal());
    expect(spin).toMatchObject({ exitCode: null, stopped: "cpu_timeout" });
    const own = await f.provider.run(handle, { command: ["bash", "-c", "echo oops >&2; exit 3"] }, signal());
    expect(own).toMatchObject({ exitCode: 3, stderr: "oops\n" });
    expect(own.stopped).toBeUndefined();
  });

  it("cuts stdout at outputBytes and says so, without killing the program", async () => {
    const f = fake();
    const handle = await f.provider.create({ runtime: "python" }, signal());
    const ran = await f.provider.run(
      handle,
      { command: ["python3", "-c", "print('x' * 5000); print('done', flush=True)"], limits: { outputBytes: 100 } },
      signal(),
    );
    expect(ran.stdout).toBe("x".repeat(100));
    expect(ran).toMatchObject({ truncated: true, exitCode: 0 });
  });

  it("refuses paths outside the working directory and limits above the ceiling (sandbox_refused)", async () => {
    const f = fake();
    const handle = await f.provider.create({ runtime: "python" }, signal());
    for (const bad of ["/etc/passwd", "../escape.txt", "a/../../b"]) {
      await expect(f.provider.writeFile(handle, bad, new Uint8Array([1]), signal())).rejects.toMatchObject({ code: "sandbox_refused" });
      await expect(f.provider.readFile(handle, bad, 10, signal())).rejects.toMatchObject({ code: "sandbox_refused" });
    }
    await expect(f.provider.run(handle, { command: ["true"], limits: { wallMs: 10_000_000 } }, signal())).rejects.toThrow(
      /limits\.wallMs is above this provider's ceiling/,
    );
    await expect(f.provider.create({ runtime: "python", limits: { memoryMib: 1 << 20 } }, signal())).rejects.toMatchObject({ code: "sandbox_refused" });
  });

  it("writes and reads bytes back exactly, at most maxBytes of them", async () => {
    const f = fake();
    const handle = await f.provider.create({ runtime: "python" }, signal());
    const bytes = new Uint8Array(70_000).map((_, i) => (i * 7) % 256);
    await f.provider.writeFile(handle, "deep/dir/blob.bin", bytes, signal());
    expect(new Uint8Array(await f.provider.readFile(handle, "deep/dir/blob.bin", 1 << 20, signal()))).toEqual(bytes);
    expect(new Uint8Array(await f.provider.readFile(handle, "deep/dir/blob.bin", 10, signal()))).toEqual(bytes.subarray(0, 10));
  });

  it("keeps a Python process whose variables survive between sends, attaches to it by name, and reports it lost when it dies", async () => {
    const f = fake();
    const handle = await f.provider.create({ runtime: "python" }, signal());
    const kernel = readFileSync(path.join(import.meta.dirname, "..", "..", "local", "sandbox", "driver", "kernel.py"), "utf8");
    await f.provider.writeFile(handle, "kernel.py", new TextEncoder().encode(kernel), signal());
    const { id } = await f.provider.keep(handle, "python", ["python3", "kernel.py"], signal());
    const first = await f.provider.send(handle, id, "x = 20", {}, signal());
    expect(first, JSON.stringify(first)).toMatchObject({ exitCode: 0 });
    const answer = await f.provider.send(handle, id, "x * 2 + 2", {}, signal());
    expect(answer).toMatchObject({ stdout: "42\n", exitCode: 0, truncated: false });
    expect((await f.provider.keep(handle, "python", ["python3", "kernel.py"], signal())).id).toBe(id);
    const failed = await f.provider.send(handle, id, "1 / 0", {}, signal());
    expect(failed.exitCode).toBe(1);
    expect(failed.stderr).toContain("ZeroDivisionError");
    // The kernel's own wall limit is the program's result; the process lives on.
    const slow = await f.provider.send(handle, id, "import time; time.sleep(5)", { wallMs: 300 }, signal());
    expect(slow).toMatchObject({ stopped: "wall_timeout", exitCode: 1 });
    expect((await f.provider.send(handle, id, "x", {}, signal())).stdout).toBe("20\n");
    // Killed: its state is lost, which the caller sees; keep() then starts a fresh one under a new id.
    const gone = await f.provider.send(handle, id, "import os; os._exit(9)", {}, signal());
    expect(gone).toMatchObject({ exitCode: null, stopped: "killed" });
    expect(gone.stderr).toContain('The kept process "python" ended; its state is lost.');
    const fresh = await f.provider.keep(handle, "python", ["python3", "kernel.py"], signal());
    expect(fresh.id).not.toBe(id);
    expect((await f.provider.send(handle, fresh.id, "'x' in globals()", {}, signal())).stdout).toBe("False\n");
    await expect(f.provider.send(handle, "python-000000000000", "1", {}, signal())).rejects.toMatchObject({ code: "sandbox_gone" });
  });

  it("destroys through the stub, and turns a stub that throws into sandbox_unavailable (sandbox_create_failed on create)", async () => {
    const f = fake();
    const handle = await f.provider.create({ runtime: "python" }, signal());
    await f.provider.destroy(handle);
    expect(f.destroyed).toEqual([handle.id]);
    const broken = new CloudflareSandboxProvider(() => ({
      exec: async () => Promise.reject(new Error("container did not start")),
      writeFile: async () => Promise.reject(new Error("no")),
      mkdir: async () => Promise.reject(new Error("no")),
      startProcess: async () => Promise.reject(new Error("no")),
      destroy: async () => {},
    }));
    const error = await broken.create({ runtime: "python" }, signal()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxError);
    expect(error).toMatchObject({ code: "sandbox_create_failed", message: expect.stringContaining("container did not start") });
    const stored: SandboxHandle = { id: "x", provider: "cloudflare", raw: { ttlSeconds: 60 } };
    await expect(broken.run(stored, { command: ["true"] }, signal())).rejects.toMatchObject({ code: "sandbox_unavailable" });
    const hung = new CloudflareSandboxProvider(() => ({ ...fakeNever(), destroy: async () => {} }));
    await expect(hung.run(stored, { command: ["true"] }, AbortSignal.timeout(50))).rejects.toThrow(/before the operation's deadline/);
  });
});

function fakeNever(): Omit<SandboxStub, "destroy"> {
  const never = () => new Promise<never>(() => {});
  return { exec: never, writeFile: never, mkdir: never, startProcess: never };
}

describe("SANDBOX_PROVIDER=cloudflare", () => {
  it("is refused with the reason in a Worker built without the provider, and uses the registered one (SANDBOX_BINDING) otherwise", () => {
    expect(() => sandboxProvider({ SANDBOX_PROVIDER: "cloudflare" })).toThrow(
      new SandboxConfigError(
        "SANDBOX_PROVIDER: cloudflare, but this Worker was built without the Cloudflare provider (deploy with EDGEGYM_SANDBOX_PROVIDER=cloudflare; see README: Sandboxes)",
      ),
    );
    const seen: string[] = [];
    useCloudflareSandboxes((_env, binding) => {
      seen.push(binding);
      return fake().provider;
    });
    expect(sandboxProvider({ SANDBOX_PROVIDER: "cloudflare" }).kind).toBe("cloudflare");
    expect(sandboxProvider({ SANDBOX_PROVIDER: "cloudflare", SANDBOX_BINDING: "BOXES" }).kind).toBe("cloudflare");
    expect(seen).toEqual(["SANDBOX", "BOXES"]);
    expect(() => sandboxProvider({ SANDBOX_PROVIDER: "cloudflare", SANDBOX_BINDING: "lower-case" })).toThrow(/SANDBOX_BINDING/);
  });
});

// Hostile code in the local sandbox (issue 28 item 4): each is contained, ends as a timeout or failure, the host unaffected.
// Every program is bounded even if isolation failed: fixed fork counts, loopback only, no signals sent.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SandboxHandle } from "../../contracts/sandbox.js";
import { runtimes } from "../../local/sandbox/runtime.js";
import { type Harness, python, SETUP_TIMEOUT_MS, startHarness } from "./service-harness.js";

let h: Harness;
let box: SandboxHandle;
const marker = `edgegym-hostile-${process.pid}-${Date.now()}`;
beforeAll(async () => {
  h = await startHarness();
  box = await h.create();
}, SETUP_TIMEOUT_MS);
afterAll(async () => {
  await h?.stop();
});

/** Host processes owned by the sandboxes' uids (200000 and up). */
function sandboxProcesses(): string[] {
  const lines = execFileSync("ps", ["-eo", "uid=,pid=,comm="], { encoding: "utf8" }).trim().split("\n");
  return lines.filter((line) => Number(line.trim().split(/\s+/)[0]) >= 200_000);
}

describe("hostile code in the local sandbox", () => {
  it("an infinite loop ends at the CPU limit (cpu_timeout), well before the wall limit", async () => {
    const result = await h.run(box, python("while True: pass", { limits: { cpuSeconds: 1, wallMs: 15_000 } }));
    expect(result).toMatchObject({ stopped: "cpu_timeout", exitCode: null });
    expect(result.wallMs).toBeLessThan(10_000);
  });

  it("a 4 GiB allocation fails inside the sandbox (memory), the host untouched", async () => {
    const result = await h.run(box, python("x = bytearray(4 << 30)\nprint('allocated')", { limits: { memoryMib: 512 } }));
    expect(result.stopped).toBe("memory");
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("MemoryError");
  });

  it("forking 1,000 processes is stopped at the process limit; none outlives the run", async () => {
    const code = [
      "import os, time",
      "made = 0",
      "for _ in range(1000):",
      "    try:",
      "        pid = os.fork()",
      "    except OSError:",
      "        break",
      "    if pid == 0:",
      "        time.sleep(3)",
      "        os._exit(0)",
      "    made += 1",
      "print(made)",
    ].join("\n");
    const result = await h.run(box, python(code, { limits: { processes: 16, wallMs: 10_000 } }));
    const made = Number(result.stdout.trim());
    expect(made).toBeGreaterThan(0);
    expect(made).toBeLessThan(16);
    // The namespace's init died with the program: its sleeping children went with it.
    expect(sandboxProcesses()).toEqual([]);
  });

  it("256 MB written to stdout is cut at the output limit (truncated), and the run still ends", async () => {
    const code = "import sys\nchunk = 'x' * (1 << 20)\nfor _ in range(256): sys.stdout.write(chunk)\nprint('done', file=sys.stderr)";
    const result = await h.run(box, python(code, { limits: { outputBytes: 1 << 20, wallMs: 60_000 } }));
    expect(result.truncated).toBe(true);
    expect(result.stdout.length).toBe(1 << 20);
    expect(result.stderr).toBe("done\n");
    expect(result.exitCode).toBe(0);
  });

  it("1 GB written to disk fails at the disk limit (File too large); the file on the host stays under it", async () => {
    const code = "chunk = b'x' * (1 << 20)\nwith open('big.bin', 'wb') as f:\n    for _ in range(1024): f.write(chunk)\nprint('wrote 1 GB')";
    const result = await h.run(box, python(code, { limits: { diskBytes: 8 << 20, wallMs: 30_000 } }));
    // Python ignores SIGXFSZ, so the write past RLIMIT_FSIZE raises EFBIG: the program fails (a failed test, reward 0).
    expect(result).toMatchObject({ exitCode: 1, stdout: "" });
    expect(result.stderr).toContain("File too large");
    const written = execFileSync("stat", ["-c", "%s", path.join(h.boxes, box.id, "work", "big.bin")], { encoding: "utf8" });
    expect(Number(written)).toBeLessThanOrEqual(8 << 20);
  });

  it("writing outside its directory fails: the host's /tmp, /usr, /etc and the project stay as they were", async () => {
    const targets = [`/tmp/${marker}`, `/usr/${marker}`, `/etc/${marker}`, path.resolve(`${marker}`), `/root/${marker}`];
    const code = `import sys\nfor p in ${JSON.stringify(targets)}:\n    try:\n        open(p, 'w').write('x'); print('wrote', p)\n    except OSError as e:\n        print('refused', p, type(e).__name__)`;
    const result = await h.run(box, python(code));
    for (const target of targets) expect(existsSync(target)).toBe(false);
    // Inside, /tmp is a tmpfs of its own: a write there lands in the sandbox, not on the host.
    expect(result.stdout).toContain(`refused /usr/${marker}`);
    expect(result.stdout).toContain(`refused /etc/${marker}`);
  });

  it("cannot read the host's files, environment or secrets", async () => {
    const secretDir = mkdtempSync(path.join(tmpdir(), "edgegym-secret-"));
    const secret = `s3cr3t-${marker}`;
    writeFileSync(path.join(secretDir, "secret.txt"), secret);
    process.env.EDGEGYM_HOSTILE_SECRET = secret;
    try {
      const paths = [
        path.join(secretDir, "secret.txt"),
        "/etc/passwd",
        "/etc/hostname",
        path.resolve("package.json"),
        "/proc/1/environ",
        `/proc/${process.pid}/environ`,
      ];
      const code = `import os\nprint(sorted(os.environ))\nfor p in ${JSON.stringify(paths)}:\n    try:\n        print(p, open(p).read()[:200])\n    except OSError as e:\n        print(p, 'unreadable', type(e).__name__)`;
      const result = await h.run(box, python(code));
      expect(result.stdout).not.toContain(secret);
      expect(result.stdout.split("\n")[0]).toBe("['HOME', 'LANG', 'PATH', 'PYTHONDONTWRITEBYTECODE']");
      for (const p of paths.slice(0, 4)) expect(result.stdout).toContain(`${p} unreadable`);
    } finally {
      delete process.env.EDGEGYM_HOSTILE_SECRET;
      rmSync(secretDir, { recursive: true, force: true });
    }
  });

  it("cannot connect to a listener on the host's loopback (no network)", async () => {
    let connections = 0;
    const server: Server = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const code = `import socket\ns = socket.socket()\ns.settimeout(2)\ntry:\n    s.connect(('127.0.0.1', ${port})); print('connected')\nexcept OSError as e:\n    print('refused', type(e).__name__)`;
      const result = await h.run(box, python(code));
      expect(result.stdout).toMatch(/^refused /);
      expect(connections).toBe(0);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("sees only its own processes, never the host's", async () => {
    const code =
      "import os\nfor p in sorted(int(d) for d in os.listdir('/proc') if d.isdigit()):\n    print(p, open(f'/proc/{p}/cmdline').read().split(chr(0))[0])";
    const result = await h.run(box, python(code));
    const lines = result.stdout.trim().split("\n");
    // The jail's shell (the namespace's init) and the program itself: nothing else exists in its PID namespace.
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe("1 sh");
    expect(lines[1]).toMatch(/^\d+ python$/);
  });

  it("sleeping past the deadline ends at the wall limit (wall_timeout)", async () => {
    const result = await h.run(box, { command: ["sleep", "30"], limits: { wallMs: 1000 } });
    expect(result).toMatchObject({ stopped: "wall_timeout", exitCode: null });
    expect(result.wallMs).toBeLessThan(5000);
  });

  it("after all that, a new sandbox starts clean and the old one leaves nothing behind", async () => {
    await h.provider.destroy(box);
    expect(existsSync(path.join(h.boxes, box.id))).toBe(false);
    expect(sandboxProcesses()).toEqual([]);
    const fresh = await h.create();
    const result = await h.run(fresh, python("import os; print(os.listdir('.'), sorted(os.listdir('/tmp')))"));
    // Its /tmp is its own and empty, but for the mount points of runtimes that live under the host's /tmp (a checkout there).
    const mountPoints = [...new Set((await runtimes()).binds.filter((bind) => bind.startsWith("/tmp/")).map((bind) => bind.split("/")[2]))].sort();
    expect(result.stdout).toBe(`[] [${mountPoints.map((name) => `'${name}'`).join(", ")}]\n`);
    expect(readdirSync(h.boxes)).toEqual([fresh.id]);
    await h.provider.destroy(fresh);
  });
});

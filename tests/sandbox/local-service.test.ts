// The local sandbox service through the SDK's HTTP provider: runtimes, stdin, files, the kept kernel, destroy, refusals.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SandboxError } from "../../environments/sdk/sandbox/errors.js";
import { type Harness, python, SETUP_TIMEOUT_MS, startHarness } from "./service-harness.js";

let h: Harness;
const signal = () => AbortSignal.timeout(60_000);
beforeAll(async () => {
  h = await startHarness();
}, SETUP_TIMEOUT_MS);
afterAll(async () => {
  await h?.stop();
});

describe("local sandbox service", () => {
  it("runs Python with numpy, scipy and pandas, and Node, as an unprivileged uid in /sandbox", async () => {
    const box = await h.create();
    const py = await h.run(box, python("import numpy, scipy, pandas, os; print(int(numpy.arange(4).sum()), os.getuid(), os.getcwd())"));
    expect(py).toMatchObject({ stdout: "6 1000 /sandbox\n", exitCode: 0, truncated: false });
    expect(py.stopped).toBeUndefined();
    const node = await h.run(box, { command: ["node", "-e", "console.log(6 * 7)"] });
    expect(node).toMatchObject({ stdout: "42\n", exitCode: 0 });
    await h.provider.destroy(box);
  });

  it("feeds stdin, passes env, and reports the program's exit code and stderr", async () => {
    const box = await h.create({ env: { GREETING: "hello" } });
    const result = await h.run(box, python("import os, sys; print(os.environ['GREETING'], sys.stdin.read().upper()); sys.exit(3)", { stdin: "abc" }));
    expect(result).toMatchObject({ stdout: "hello ABC\n", exitCode: 3 });
    const failed = await h.run(box, python("raise ValueError('boom')"));
    expect(failed.exitCode).toBe(1);
    expect(failed.stderr).toContain("ValueError: boom");
    await h.provider.destroy(box);
  });

  it("writes and reads files in the working directory, and the spec's files are there before the first run", async () => {
    const box = await h.create({ files: { "data/input.txt": "1 2 3" } });
    await h.provider.writeFile(box, "solution.py", new TextEncoder().encode("print(sum(map(int, open('data/input.txt').read().split())))"), signal());
    expect(await h.run(box, { command: ["python", "solution.py"] })).toMatchObject({ stdout: "6\n", exitCode: 0 });
    await h.run(box, python("open('out.txt', 'w').write('written inside')"));
    expect(new TextDecoder().decode(await h.provider.readFile(box, "out.txt", 100, signal()))).toBe("written inside");
    expect(new TextDecoder().decode(await h.provider.readFile(box, "out.txt", 7, signal()))).toBe("written");
    await h.provider.destroy(box);
  });

  it("refuses paths outside the working directory, including a symlink the program planted", async () => {
    const box = await h.create();
    for (const bad of ["../escape.txt", "/etc/hostname", "a/../../escape.txt"]) {
      const error = await h.provider.readFile(box, bad, 100, signal()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SandboxError);
      expect(error).toMatchObject({ code: "sandbox_refused", status: 403 });
    }
    await h.run(box, python("import os; os.symlink('/etc/hostname', 'link')"));
    await expect(h.provider.readFile(box, "link", 100, signal())).rejects.toMatchObject({ code: "sandbox_refused" });
    await expect(h.provider.writeFile(box, "link", new Uint8Array([1]), signal())).rejects.toMatchObject({ code: "sandbox_refused" });
    await h.provider.destroy(box);
  });

  it("keeps a Python kernel whose variables survive between calls, and a timed-out call leaves them intact", async () => {
    const box = await h.create();
    const kernel = await h.provider.keep(box, "python", ["python", path.resolve("local/sandbox/driver/kernel.py")], signal());
    const first = await h.provider.send(box, kernel.id, "import numpy as np\nx = np.array([1, 2, 3])\nprint('set')", {}, signal());
    expect(first).toMatchObject({ stdout: "set\n", exitCode: 0 });
    expect(await h.provider.send(box, kernel.id, "int(x.sum()) * 2", {}, signal())).toMatchObject({ stdout: "12\n", exitCode: 0 });
    const slow = await h.provider.send(box, kernel.id, "while True: pass", { wallMs: 800 }, signal());
    expect(slow).toMatchObject({ exitCode: 1, stopped: "wall_timeout" });
    expect(slow.stderr).toContain("TimeoutError");
    const error = await h.provider.send(box, kernel.id, "1/0", {}, signal());
    expect(error.exitCode).toBe(1);
    expect(error.stderr).toContain("ZeroDivisionError");
    expect(await h.provider.send(box, kernel.id, "print(x.tolist())", {}, signal())).toMatchObject({ stdout: "[1, 2, 3]\n" });
    // Asking again for the live kernel by name attaches to it.
    expect((await h.provider.keep(box, "python", ["python", "ignored"], signal())).id).toBe(kernel.id);
    await h.provider.destroy(box);
  });

  it("destroy removes the directory, is idempotent, and a destroyed sandbox answers sandbox_gone", async () => {
    const box = await h.create();
    await h.run(box, python("open('x', 'w').write('x')"));
    expect(readdirSync(h.boxes)).toContain(box.id);
    await h.provider.destroy(box);
    expect(existsSync(path.join(h.boxes, box.id))).toBe(false);
    await h.provider.destroy(box);
    await expect(h.run(box, python("print(1)"))).rejects.toMatchObject({ code: "sandbox_gone", status: 404 });
  });

  it("answers bad input with 422 and the zod issue path, and a limit above the ceiling with sandbox_refused", async () => {
    const box = await h.create();
    const answer = await fetch(`${h.service.url}/sandboxes/${box.id}/run`, { method: "POST", body: JSON.stringify({ command: [] }) });
    expect(answer.status).toBe(422);
    const body = (await answer.json()) as { error: { code: string; issues: { path: string[] }[] } };
    expect(body.error.code).toBe("sandbox_refused");
    expect(body.error.issues[0]?.path).toEqual(["command"]);
    await expect(h.run(box, python("print(1)", { limits: { memoryMib: 1 << 20 } }))).rejects.toMatchObject({ code: "sandbox_refused", status: 403 });
    await h.provider.destroy(box);
  });
});

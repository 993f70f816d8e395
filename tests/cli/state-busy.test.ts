// Two local runs on one state folder (a `collect` or `npm start` beside a running `edgegym dev`): the second runs on a
// private state of its own and says so, instead of hanging on SQLite locks; a dead owner's claim is taken over.
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { startLocal } from "../../local/emulation.js";
import { PROJECT_ROOT } from "../../local/paths.js";
import { holdState } from "../../local/state-lock.js";
import { postJson, rememberToken } from "../helpers/local.js";

const dir = mkdtempSync(path.join(tmpdir(), "edgegym-state-busy-"));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

/** A process that stays alive until the test ends: the stand-in for another edgegym holding the state. */
function sleeper(): ChildProcess {
  const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 120000)"]);
  children.push(child);
  return child;
}

describe("a state folder held by another process", () => {
  it("holds a free folder, gives a private one while a live process holds it, and takes over a dead owner's", async () => {
    const state = path.join(dir, "unit", "state");
    const first = holdState(state);
    expect(first.dir).toBe(state);
    expect(JSON.parse(readFileSync(`${state}.owner`, "utf8")).pid).toBe(process.pid);
    first.release();
    expect(existsSync(`${state}.owner`)).toBe(false);

    const other = sleeper();
    writeFileSync(`${state}.owner`, JSON.stringify({ pid: other.pid, what: "the edgegym (pid 1) serving http://127.0.0.1:8787" }));
    const said = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const second = holdState(state);
    const message = said.mock.calls.map((call) => String(call[0])).join("");
    said.mockRestore();
    expect(second.dir).not.toBe(state);
    expect(existsSync(second.dir)).toBe(true);
    expect(message).toBe(
      `${state} is in use by the edgegym (pid 1) serving http://127.0.0.1:8787: this run keeps its state in ${second.dir} (removed when it ends)\n`,
    );
    second.release();
    expect(existsSync(second.dir)).toBe(false);
    expect(JSON.parse(readFileSync(`${state}.owner`, "utf8")).pid, "the holder's claim is left alone").toBe(other.pid);

    other.kill("SIGKILL");
    await new Promise((resolve) => other.once("exit", resolve));
    const third = holdState(state);
    expect(third.dir, "a dead owner's claim is taken over").toBe(state);
    third.release();
  });

  it("a run beside `edgegym dev` on the same state scores its rollout on a private state; dev's is untouched", async () => {
    const stateDir = path.join(dir, "dev");
    const token = `edgegym_test_${randomUUID()}`;
    const { API_TOKENS: _a, ...inherited } = process.env;
    const dev = spawn(
      process.execPath,
      [path.join(PROJECT_ROOT, "bin", "edgegym.js"), "dev", "--port", "0", "--environments", "example_single_tool_call", "--state-dir", stateDir],
      {
        cwd: PROJECT_ROOT,
        env: { ...inherited, EDGEGYM_TOKEN: token },
      },
    );
    children.push(dev);
    let stdout = "";
    const devUrl = await new Promise<string>((resolve, reject) => {
      dev.on("exit", () => reject(new Error(`dev exited early: ${stdout}`)));
      dev.stdout!.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = /edgegym gateway: (\S+)\n/.exec(stdout);
        if (match) resolve(match[1]!);
      });
    });
    const state = path.join(stateDir, "state");
    expect(JSON.parse(readFileSync(`${state}.owner`, "utf8")).what).toBe(`the edgegym (pid ${dev.pid}) serving ${devUrl}`);

    const said = vi.spyOn(process.stderr, "write");
    const local = await startLocal({ port: 0, persist: state, environments: ["example_single_tool_call"], apiTokens: `t:${token}:admin` });
    try {
      expect(said.mock.calls.map((call) => String(call[0])).join("")).toContain(
        `${state} is in use by the edgegym (pid ${dev.pid}) serving ${devUrl}: this run keeps its state in `,
      );
      rememberToken(local.url, token);
      const row = JSON.parse(readFileSync(path.join(PROJECT_ROOT, "environments/example_single_tool_call/data/example.jsonl"), "utf8").split("\n")[0]!);
      const answer = await postJson(`${local.url}/run?environment=example_single_tool_call`, row);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(typeof answer.body.reward).toBe("number");
    } finally {
      said.mockRestore();
      await local.stop();
    }
    // dev still serves, on its own state.
    const health = await fetch(`${devUrl}/v1/environments`, { headers: { authorization: `Bearer ${token}` } });
    expect(health.status).toBe(200);
    expect(JSON.parse(readFileSync(`${state}.owner`, "utf8")).pid).toBe(dev.pid);
    // Ctrl-C, and wait for it: dev stops its runtime on the way out (a SIGKILL would leave workerd behind).
    const exited = new Promise((resolve) => dev.once("exit", resolve));
    dev.kill("SIGINT");
    await exited;
  });
});

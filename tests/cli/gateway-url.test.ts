// Which gateway the jobs and collect commands talk to (--url, else EDGEGYM_URL, else 127.0.0.1:8787) and with which saved
// dev token (the one `edgegym dev --state-dir <dir>` saved, found with the same --state-dir).
import { execFile, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEV_TOKEN_FILE } from "../../local/cli/token.js";
import { PROJECT_ROOT } from "../../local/paths.js";

const exec = promisify(execFile);
const BIN = path.join(PROJECT_ROOT, "bin", "edgegym.js");

interface Seen {
  method: string;
  path: string;
  authorization?: string;
}

/** A stand-in gateway: an empty jobs list on GET /v1/jobs, 401 on anything else; it records what it was asked. */
async function fakeGateway(): Promise<{ url: string; seen: Seen[]; server: Server }> {
  const seen: Seen[] = [];
  const server = createServer((request, response) => {
    seen.push({
      method: request.method ?? "",
      path: request.url ?? "",
      ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}),
    });
    request.resume();
    const list = request.method === "GET" && request.url === "/v1/jobs";
    response.writeHead(list ? 200 : 401, { "content-type": "application/json" });
    response.end(JSON.stringify(list ? { data: [] } : { error: { code: "unauthorized", message: "no token" } }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

/** The environment of a user who set no token and no gateway. */
function plain(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { EDGEGYM_TOKEN: _t, API_TOKENS: _a, EDGEGYM_URL: _u, ...env } = process.env;
  return { ...env, ...extra };
}

async function edgegym(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [BIN, ...args], { cwd: PROJECT_ROOT, env, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

let a: Awaited<ReturnType<typeof fakeGateway>>;
let b: Awaited<ReturnType<typeof fakeGateway>>;
let dir: string;
beforeAll(async () => {
  [a, b] = await Promise.all([fakeGateway(), fakeGateway()]);
  dir = mkdtempSync(path.join(tmpdir(), "edgegym-url-"));
});
afterAll(() => {
  a.server.close();
  b.server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the gateway URL", () => {
  it("jobs list: EDGEGYM_URL names the gateway; --url wins over it", async () => {
    const fromEnv = await edgegym(["jobs", "list"], plain({ EDGEGYM_URL: a.url }));
    expect(fromEnv, fromEnv.stderr).toMatchObject({ code: 0, stdout: "no jobs\n" });
    expect(a.seen.map((s) => `${s.method} ${s.path}`)).toEqual(["GET /v1/jobs"]);

    const fromFlag = await edgegym(["jobs", "list", "--url", b.url], plain({ EDGEGYM_URL: a.url }));
    expect(fromFlag.code, fromFlag.stderr).toBe(0);
    expect(b.seen).toHaveLength(1);
    expect(a.seen).toHaveLength(1);
  });

  it("the jobs commands and collect say so in their help, with the default", async () => {
    const [list, resume, collect] = await Promise.all(
      [["jobs", "list"], ["jobs", "resume"], ["collect"]].map((command) => edgegym([...command, "--help"], plain())),
    );
    for (const help of [list!, resume!])
      expect(help.stdout.replace(/\s+/g, " ")).toContain('--url <gateway> the gateway (default: "http://127.0.0.1:8787", env: EDGEGYM_URL)');
    expect(collect!.stdout.replace(/\s+/g, " ")).toMatch(
      /--url <gateway> an edgegym gateway; without it the local emulation is started and stopped \(env: EDGEGYM_URL\)/,
    );
  });

  it("collect: EDGEGYM_URL is the gateway, no local emulation is started", async () => {
    const input = path.join(PROJECT_ROOT, "environments", "mcqa", "data", "example.jsonl");
    const result = await edgegym(["collect", "-e", "mcqa", "-i", input, "-o", path.join(dir, "out.jsonl")], plain({ EDGEGYM_URL: b.url }));
    expect(result.code).toBe(1);
    expect(result.stderr).not.toContain("starting the local emulation");
    expect(result.stderr).toContain("401");
    expect(b.seen.length).toBeGreaterThan(1);
  });

  it("--state-dir: the dev token saved there is sent", async () => {
    const stateDir = path.join(dir, "saved");
    const token = "edgegym_dev_saved-in-state-dir";
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(path.join(stateDir, "dev-token"), `${token}\n`);
    const result = await edgegym(["jobs", "list", "--url", a.url, "--state-dir", stateDir], plain());
    expect(result.code, result.stderr).toBe(0);
    expect(a.seen.at(-1)).toMatchObject({ path: "/v1/jobs", authorization: `Bearer ${token}` });
  });
});

describe("edgegym dev --state-dir", () => {
  it("saves its dev token in that folder, says where, and jobs finds it there with --state-dir", async () => {
    const stateDir = path.join(dir, "dev");
    const child = spawn(process.execPath, [BIN, "dev", "--port", "0", "--state-dir", stateDir], { cwd: PROJECT_ROOT, env: plain() });
    const exited = new Promise((resolve) => child.once("exit", resolve));
    let stdout = "";
    try {
      const ready = await new Promise<{ url: string; token: string }>((resolve, reject) => {
        child.once("exit", (code) => reject(new Error(`edgegym dev exited with ${code}: ${stdout}`)));
        child.stdout.on("data", (chunk: Buffer) => {
          stdout += chunk.toString();
          const url = /edgegym gateway: (\S+)/.exec(stdout)?.[1];
          const token = /dev token: (\S+)\n.*\n/.exec(stdout)?.[1];
          if (url && token) resolve({ url, token });
        });
      });
      const file = path.join(stateDir, "dev-token");
      expect(stdout).toContain(`(saved in ${file} (\`edgegym jobs …\` and \`collect --url\` read it with --state-dir ${stateDir}); send it as`);
      expect(readFileSync(file, "utf8").trim()).toBe(ready.token);
      // The default state folder does not get it.
      if (existsSync(DEV_TOKEN_FILE)) expect(readFileSync(DEV_TOKEN_FILE, "utf8")).not.toContain(ready.token);

      const listed = await edgegym(["jobs", "list", "--url", ready.url, "--state-dir", stateDir], plain());
      expect(listed, listed.stderr).toMatchObject({ code: 0, stdout: "no jobs\n" });
      const viaEnv = await edgegym(["jobs", "list", "--state-dir", stateDir], plain({ EDGEGYM_URL: ready.url }));
      expect(viaEnv, viaEnv.stderr).toMatchObject({ code: 0, stdout: "no jobs\n" });
    } finally {
      child.kill("SIGINT");
      await exited;
    }
    expect(existsSync(path.join(stateDir, "dev-token"))).toBe(false);
  });
});

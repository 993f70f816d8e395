// `edgegym dev` makes up a token when none is set, prints it and saves it; the CLI then uses it against that gateway.
import { execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { DEV_TOKEN_FILE } from "../../local/cli/token.js";
import { PROJECT_ROOT } from "../../local/paths.js";

const exec = promisify(execFile);
const BIN = path.join(PROJECT_ROOT, "bin", "edgegym.js");

/** The environment without any token setting, as a user who set none has it. */
function untokened(): NodeJS.ProcessEnv {
  const { EDGEGYM_TOKEN: _t, API_TOKENS: _a, ...env } = process.env;
  return env;
}

describe("edgegym dev", () => {
  it("prints a dev token, saves it for the CLI, requires it, and forgets it on exit", async () => {
    const child = spawn(process.execPath, [BIN, "dev", "--port", "0"], { cwd: PROJECT_ROOT, env: untokened() });
    try {
      let stdout = "";
      const ready = await new Promise<{ url: string; token: string }>((resolve, reject) => {
        child.once("exit", (code) => reject(new Error(`edgegym dev exited with ${code}: ${stdout}`)));
        child.stdout.on("data", (chunk: Buffer) => {
          stdout += chunk.toString();
          const url = /edgegym gateway: (\S+)/.exec(stdout)?.[1];
          const token = /dev token: (\S+)/.exec(stdout)?.[1];
          if (url && token) resolve({ url, token });
        });
      });
      expect(ready.token).toMatch(/^edgegym_dev_[\w-]+$/);
      expect(existsSync(DEV_TOKEN_FILE)).toBe(true);

      // Without a token, the gateway refuses; the CLI finds the saved one by itself.
      expect((await fetch(`${ready.url}/v1/jobs`)).status).toBe(401);
      expect((await fetch(`${ready.url}/v1/jobs`, { headers: { authorization: `Bearer ${ready.token}` } })).status).toBe(200);
      const listed = await exec(process.execPath, [BIN, "jobs", "list", "--url", ready.url], { cwd: PROJECT_ROOT, env: untokened() });
      // The list (the dev state persists in .edgegym/state, so it may hold earlier jobs) under its header, not a 401.
      expect(listed.stdout).toMatch(/^(no jobs\n|id +status +progress[^\n]*\n-+ [- ]+\n(job_\w+ [^\n]*\n)+)$/);
    } finally {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGINT");
      await exited;
    }
    expect(existsSync(DEV_TOKEN_FILE)).toBe(false);
  });
});

// `edgegym dev --environments a,b`: the local emulation with only the environments named.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../local/paths.js";
import { edgegym } from "../helpers/cli.js";

describe("edgegym dev --environments", () => {
  it("serves only the environments named, and stops on Ctrl-C", async () => {
    // The caller's own token (EDGEGYM_TOKEN): no dev token is made up, so the one tests/cli/dev-token saves is left alone.
    const { API_TOKENS: _a, ...inherited } = process.env;
    const token = `edgegym_test_${randomUUID()}`;
    const child = spawn(process.execPath, [path.join(PROJECT_ROOT, "bin", "edgegym.js"), "dev", "--port", "0", "--environments", "mcqa,string_match"], {
      cwd: PROJECT_ROOT,
      env: { ...inherited, EDGEGYM_TOKEN: token },
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    let stdout = "";
    const url = await new Promise<string>((resolve, reject) => {
      child.on("exit", () => reject(new Error(`dev exited early: ${stdout}`)));
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = /edgegym gateway: (\S+)\n[\s\S]*environments: .*\n/.exec(stdout);
        if (match) resolve(match[1]!);
      });
    });
    try {
      expect(stdout).toContain("environments: mcqa, string_match\n");
      const listed = (await (await fetch(`${url}/v1/environments`, { headers: { authorization: `Bearer ${token}` } })).json()) as { data: { name: string }[] };
      expect(listed.data.map((e) => e.name).sort()).toEqual(["mcqa", "string_match"]);
    } finally {
      child.kill("SIGINT");
    }
    // It stops (0 from its own handler, or 130 when the signal lands before it is installed).
    expect([0, 130]).toContain(await exited);
  });

  it("an unknown name is one clear line and exit 1", async () => {
    const result = await edgegym(["dev", "--port", "0", "--environments", "mcqa,nope"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('no environment "nope"');
  });
});

// `edgegym dev` on state with a running job whose resume fails at start: dev says which job and runs on (issue 21: it exited 1
// on every start until .edgegym/ was deleted).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../local/paths.js";
import { createJob, jobInfo } from "../helpers/jobs.js";
import { forgetToken, rememberToken, startTestLocal } from "../helpers/local.js";

const TOKEN = `edgegym_test_resume_${process.pid}_0123456789abcdef`;

describe("edgegym dev with a resume that fails at start", () => {
  it("reports the job it could not resume and keeps serving; the job is left as it was", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "edgegym-dev-resume-"));
    try {
      // A job left running on the state: a slow model, and the emulation stopped under it.
      const first = await startTestLocal({
        persist: path.join(dir, "state"),
        logs: { dir: path.join(dir, "logs") },
        apiTokens: `test:${TOKEN}:admin`,
        environments: ["example_single_tool_call"],
        simulator: { latencyMs: 60_000 },
      });
      rememberToken(first.url, TOKEN);
      let id: string;
      try {
        const rows = Array.from({ length: 3 }, (_, i) => JSON.stringify({ responses_create_params: { input: `weather in Turku, day ${i}?` } })).join("\n");
        const created = await createJob(first.url, rows, { environment: "example_single_tool_call" });
        expect(created.status).toBe(201);
        id = created.body.id as string;
      } finally {
        forgetToken(first.url);
        await first.stop();
      }

      const { API_TOKENS: _a, ...inherited } = process.env;
      const child = spawn(
        process.execPath,
        [
          "--import",
          path.join(PROJECT_ROOT, "tests", "cli", "fixtures", "refuse-resume.mjs"),
          path.join(PROJECT_ROOT, "bin", "edgegym.js"),
          "dev",
          "--port",
          "0",
          "--state-dir",
          dir,
          "--environments",
          "example_single_tool_call",
        ],
        { cwd: PROJECT_ROOT, env: { ...inherited, EDGEGYM_TOKEN: TOKEN } },
      );
      const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
      let stdout = "";
      let stderr = "";
      try {
        const url = await new Promise<string>((resolve, reject) => {
          child.on("exit", (code) => reject(new Error(`dev exited (${code}) instead of running on:\n${stdout}\n${stderr}`)));
          const check = () => {
            const gateway = /edgegym gateway: (\S+)\n/.exec(stdout)?.[1];
            if (gateway && stderr.includes("dev runs on")) resolve(gateway);
          };
          child.stdout.on("data", (chunk: Buffer) => {
            stdout += chunk.toString();
            check();
          });
          child.stderr.on("data", (chunk: Buffer) => {
            stderr += chunk.toString();
            check();
          });
        });
        expect(stderr).toContain(`could not resume job ${id}: the gateway answered 500: queue message 0 is 189198 bytes`);
        expect(stderr).toContain(`it is left as it was and dev runs on; try again with \`edgegym jobs resume ${id} --only-missing --url ${url}\``);
        // Still serving, and the job is as the last run left it.
        rememberToken(url, TOKEN);
        const info = await jobInfo(url, id);
        expect(info.status).toBe("running");
        expect(info.counts).toMatchObject({ total: 3, done: 0, failed: 0 });
        forgetToken(url);
      } finally {
        child.kill("SIGINT");
      }
      expect([0, 130]).toContain(await exited);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

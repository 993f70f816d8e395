// Ctrl-C during `edgegym collect`, then `--resume` into the same output: nothing finished is lost or run twice.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, describe, it } from "vitest";
import { PROJECT_ROOT } from "../../local/paths.js";
import { edgegym, tokenEnv } from "../helpers/cli.js";
import { FIXTURES, readJsonl } from "../helpers/fixtures.js";
import { gatewayFetch, startTestLocal } from "../helpers/local.js";

const dir = mkdtempSync(path.join(tmpdir(), "edgegym-resume-"));
const keys = (records: Record<string, unknown>[]) => records.map((r) => [r._ng_task_index, r._ng_rollout_index]);
const jobsIn = (stderr: string) => [...stderr.matchAll(/job (job_\w+): (\d+) rollouts/g)].map((m) => Number(m[2]));

describe("Ctrl-C, then --resume into the same output", () => {
  it("the interrupted run writes what it finished; the resumed one collects only the rest", async () => {
    const slow = await startTestLocal({
      environments: ["example_single_tool_call"],
      simulator: { latencyMs: 200 },
      // One rollout at a time (whether the consumer or a runner runs them), so the interrupt finds the job part-way.
      vars: { agent: { BATCH_CONCURRENCY: "1", RUNNER_SHARDS: "1", RUNNER_MAX_IN_FLIGHT: "1" } },
    });
    try {
      const input = path.join(FIXTURES, "example_single_tool_call", "example.jsonl");
      const out = path.join(dir, "interrupted.jsonl");
      const args = ["collect", "--url", slow.url, "-e", "example_single_tool_call", "-i", input, "-o", out, "-n", "4"];
      const child = spawn(process.execPath, [path.join(PROJECT_ROOT, "bin", "edgegym.js"), ...args], { cwd: PROJECT_ROOT, env: tokenEnv(args) });
      let stderr = "";
      const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
      const id = await new Promise<string>((resolve) => {
        child.stderr.on("data", (chunk: Buffer) => {
          stderr += chunk.toString();
          const match = /job (job_\w+): 20 rollouts/.exec(stderr);
          if (match) resolve(match[1]!);
        });
      });
      // Let a few rollouts finish, then interrupt.
      for (let i = 0; i < 100; i++) {
        const info = (await (await gatewayFetch(`${slow.url}/v1/jobs/${id}`)).json()) as { counts: { done: number } };
        if (info.counts.done >= 3) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      child.kill("SIGINT");
      expect(await exited).toBe(130);
      expect(stderr).toContain("--resume");
      expect(existsSync(out)).toBe(true);
      const partial = readJsonl(out);
      expect(partial.length).toBeGreaterThanOrEqual(3);
      expect(partial.length).toBeLessThan(20);
      // The gateway's job would go on; stop it so the resumed run is the only one at work.
      expect((await edgegym(["jobs", "cancel", id, "--url", slow.url])).code).toBe(0);
      const resumed = await edgegym([...args, "--resume"]);
      expect(resumed.code).toBe(0);
      expect(jobsIn(resumed.stderr)).toEqual([20 - partial.length]);
      const records = readJsonl(out);
      expect(keys(records)).toEqual(Array.from({ length: 5 }, (_, t) => [0, 1, 2, 3].map((r) => [t, r])).flat());
      for (const kept of partial) expect(records).toContainEqual(kept);
    } finally {
      await slow.stop();
    }
  });
});

// Crash and restart: the local emulation killed with SIGKILL in the middle of a job, started again on the same state: the
// job completes (resumed on start) with one record per rollout, none twice, and a stateful environment's session survives.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../local/paths.js";
import { createJob, jobInfo, jobLines, waitForJob } from "../helpers/jobs.js";
import { forgetToken, postJson, rememberToken } from "../helpers/local.js";

const TOKEN = `crash-${process.pid}-token-0123456789abcdefghij`;

interface Started {
  child: ChildProcess;
  url: string;
  recovered: { id: string; resumed: number }[];
}

const children = new Set<ChildProcess>();

/** Starts the emulation in its own process group (workerd included), so the test can kill all of it by the group's id. */
function start(dir: string): Promise<Started> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(PROJECT_ROOT, "tests", "crash", "child.ts"), dir], {
    cwd: PROJECT_ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", EDGEGYM_CRASH_TOKEN: TOKEN },
  });
  children.add(child);
  let output = "";
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /READY (\{.*\})\n/.exec(output);
      if (ready) {
        const parsed = JSON.parse(ready[1]!) as { url: string; recovered: Started["recovered"] };
        rememberToken(parsed.url, TOKEN);
        resolve({ child, url: parsed.url, recovered: parsed.recovered });
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("exit", (code) => reject(new Error(`the emulation exited (${code}) before it was ready: ${output.slice(-2000)}`)));
  });
}

/** SIGKILL to the child's whole process group (the emulation and its workerd): no cleanup runs. */
async function kill(child: ChildProcess): Promise<void> {
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  process.kill(-child.pid!, "SIGKILL");
  await exited;
  children.delete(child);
}

afterEach(async () => {
  for (const child of children) {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // Already gone: nothing left to stop.
    }
  }
  children.clear();
});

describe("crash and restart", () => {
  it("SIGKILL mid-job, start again on the same state: the job completes, nothing lost or twice, sessions kept", { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "edgegym-crash-"));
    try {
      const first = await start(dir);
      // A session of a stateful environment (its id minted by the seed, signed with the state's key), state written before the crash.
      const counter = (url: string) => `${url}/v1/environments/example_session_state_mgmt`;
      const seeded = await postJson(`${counter(first.url)}/seed_session`, { responses_create_params: { input: "count" }, initial_count: 40 });
      expect(seeded.status).toBe(200);
      const session = { "x-session-id": seeded.headers.get("x-session-id")! };
      expect((await postJson(`${counter(first.url)}/increment_counter`, { count: 2 }, session)).status).toBe(200);

      const rows = Array.from({ length: 6 }, (_, i) => JSON.stringify({ responses_create_params: { input: `weather in place ${i}?` } })).join("\n");
      const created = await createJob(first.url, rows, { environment: "example_single_tool_call", num_repeats: "50" });
      const id = created.body.id as string;
      let before = await jobInfo(first.url, id);
      while (before.counts.done < 30) {
        await sleep(25);
        before = await jobInfo(first.url, id);
      }
      await kill(first.child);
      forgetToken(first.url);
      expect(before.status).toBe("running");

      const second = await start(dir);
      expect(second.recovered.map((job) => job.id)).toContain(id);
      const info = await waitForJob(second.url, id, 90_000);
      expect(info.status).toBe("completed");
      const rollouts = await jobLines(second.url, id, "rollouts");
      const failures = await jobLines(second.url, id, "failures");
      expect(rollouts.length + failures.length).toBe(300);
      const ids = [...rollouts, ...failures].map((r) => r._ng_rollout_id);
      expect(new Set(ids).size).toBe(300);
      expect(info.counts).toMatchObject({ total: 300, done: rollouts.length, failed: failures.length });
      // What was recorded before the crash is still there: the job went on from it.
      expect(rollouts.length).toBeGreaterThanOrEqual(before.counts.done);

      const value = await postJson(`${counter(second.url)}/get_counter_value`, {}, session);
      expect(value.body).toEqual({ count: 42 });
      second.child.kill("SIGTERM");
      await new Promise((resolve) => second.child.once("exit", resolve));
      children.delete(second.child);
      forgetToken(second.url);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// A job whose queued work is lost (the local queues are in memory: a stop mid-job loses them) is reported as stalled and
// heals itself from its Job object's alarm: it re-enqueues what is missing, a bounded number of times, then gives up on
// what is still missing as dead_letter failures. Either way the job completes, with one record per rollout.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import type { LocalOptions } from "../../local/emulation.js";
import { createJob, jobInfo, jobLines, waitForJob } from "../helpers/jobs.js";
import { startTestLocal } from "../helpers/local.js";

const ENVIRONMENT = "example_single_tool_call";
const ROWS = Array.from({ length: 4 }, (_, i) => JSON.stringify({ responses_create_params: { input: `weather in town ${i}?` } })).join("\n");

/** Starts, creates a job of 4 rows × 10 with a slow model, stops it part-way (its queues lost), and starts again. */
async function interrupted(dir: string, writer: Record<string, string>, agent: Record<string, string> = { RUNNER_SHARDS: "0" }) {
  // Without rollout runners by default: their rollouts are stored in them and survive the stop (the last test).
  const options: LocalOptions = { environments: [ENVIRONMENT], persist: dir, vars: { writer, agent: { BATCH_CONCURRENCY: "4", ...agent } } };
  const first = await startTestLocal({ ...options, simulator: { latencyMs: 150 } });
  const created = await createJob(first.url, ROWS, { environment: ENVIRONMENT, num_repeats: "10" });
  const id = created.body.id as string;
  for (let info = await jobInfo(first.url, id); info.counts.done < 5; info = await jobInfo(first.url, id)) await sleep(50);
  await first.stop();
  // Started again without resuming anything: only the Job object's own alarm can move the job now.
  const second = await startTestLocal(options);
  return { local: second, id };
}

describe("a stalled job heals itself", () => {
  it("is reported as stalled, re-enqueues what is missing, and completes with every rollout once", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "edgegym-stall-"));
    const { local, id } = await interrupted(dir, { STALL_SECONDS: "2", MAX_HEALS: "3" });
    try {
      const info = await waitForJob(local.url, id, 60_000);
      expect(info.status).toBe("completed");
      // The status reports each stall: when, how much was missing, and that it healed.
      expect(info.heals).toBeGreaterThanOrEqual(1);
      expect(info.stalls?.[0]).toMatchObject({ action: "healed", missing: expect.any(Number) });
      expect(info.stalls![0]!.missing).toBeGreaterThan(0);
      expect(info.stalls![0]!.missing).toBeLessThanOrEqual(35);
      const rollouts = await jobLines(local.url, id, "rollouts");
      const failures = await jobLines(local.url, id, "failures");
      expect(rollouts.length + failures.length).toBe(40);
      expect(new Set([...rollouts, ...failures].map((r) => r._ng_rollout_id)).size).toBe(40);
      expect(info.counts).toMatchObject({ total: 40, done: rollouts.length, failed: failures.length });
    } finally {
      await local.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("with its heals spent, what is still missing becomes dead_letter failures and the job completes", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "edgegym-stall-"));
    const { local, id } = await interrupted(dir, { STALL_SECONDS: "1", MAX_HEALS: "0" });
    try {
      const info = await waitForJob(local.url, id, 60_000);
      expect(info.status).toBe("completed");
      const rollouts = await jobLines(local.url, id, "rollouts");
      const failures = await jobLines(local.url, id, "failures");
      expect(rollouts.length).toBeGreaterThanOrEqual(5);
      expect(rollouts.length + failures.length).toBe(40);
      expect(new Set([...rollouts, ...failures].map((r) => r._ng_rollout_id)).size).toBe(40);
      expect(info.counts.failed_by_class.dead_letter).toBe(failures.length);
      for (const failure of failures) expect(failure.message).toContain("heal");
      expect(info.stalls).toEqual([{ at: expect.any(Number), missing: failures.length, action: "gave_up" }]);
    } finally {
      await local.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("with rollout runners, the rollouts they hold survive the stop: the job completes, every rollout once, with no stall", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "edgegym-stall-"));
    // A stall (no progress for STALL_SECONDS) would re-enqueue; the runners' own watchdog must come first.
    const { local, id } = await interrupted(dir, { STALL_SECONDS: "600", MAX_HEALS: "3" }, { RUNNER_SHARDS: "2" });
    try {
      const info = await waitForJob(local.url, id, 100_000);
      expect(info.status).toBe("completed");
      expect(info.heals ?? 0).toBe(0);
      const rollouts = await jobLines(local.url, id, "rollouts");
      expect(rollouts).toHaveLength(40);
      expect(new Set(rollouts.map((r) => r._ng_rollout_id)).size).toBe(40);
      expect(info.counts).toMatchObject({ total: 40, done: 40, failed: 0 });
    } finally {
      await local.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 150_000);
});

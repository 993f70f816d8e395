// Resume at any size, and a resume that fails leaves the job as it was (issue 21: a 500 left a cancelled job "running").
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { jobKeys, rolloutId } from "../../contracts/messages.js";
import { CLOUDFLARE_LIMITS } from "../../queues/cloudflare.js";
import { messageBytes } from "../../queues/queue.js";
import { createJob, jobInfo, jobLines, waitForJob } from "../helpers/jobs.js";
import { gatewayFetch, startTestLocal } from "../helpers/local.js";

/** Polls until the job's count of results stops moving for a second. */
async function settled(url: string, id: string) {
  let last = -1;
  for (let quiet = 0; quiet < 4; await sleep(250)) {
    const info = await jobInfo(url, id);
    const landed = info.counts.done + info.counts.failed;
    quiet = landed === last ? quiet + 1 : 0;
    last = landed;
    if (quiet === 4) return info;
  }
  throw new Error("unreachable");
}

describe("resume of a large cancelled job", () => {
  it("re-enqueues a missing set that one queue message could not list, and runs every rollout exactly once", async () => {
    const local = await startTestLocal({ environments: ["string_match"], simulator: { latencyMs: 300 } });
    try {
      // The smallest job found that overflows one message: 6,400 rollouts in one chunk, with 16-digit task indices
      // (22 bytes a listed pair). Issue 21's job was 40,000 rollouts of small indices.
      const rows = Array.from({ length: 100 }, (_, i) =>
        JSON.stringify({ _ng_task_index: 1_000_000_000_000_000 + i, responses_create_params: { input: `Say ${i}.` }, expected_answer: String(i) }),
      ).join("\n");
      const created = await createJob(local.url, rows, { environment: "string_match", num_repeats: "64" });
      expect(created.status).toBe(201);
      const id = created.body.id as string;
      for (let info = await jobInfo(local.url, id); info.counts.done < 1; info = await jobInfo(local.url, id)) await sleep(20);
      expect((await gatewayFetch(`${local.url}/v1/jobs/${id}`, { method: "DELETE" })).status).toBe(200);
      const cancelled = await settled(local.url, id);
      expect(cancelled.status).toBe("cancelled");

      // What the resume had to enqueue, as the single message it used to send: over Cloudflare's limit.
      const have = new Set((await jobLines(local.url, id, "rollouts")).map((r) => r._ng_rollout_id as string));
      const missing: [number, number][] = [];
      for (let i = 0; i < 100; i++)
        for (let r = 0; r < 64; r++) if (!have.has(rolloutId(id, 1_000_000_000_000_000 + i, r))) missing.push([1_000_000_000_000_000 + i, r]);
      const single = { kind: "expand", job_id: id, chunk_key: jobKeys.inputsChunk(id, 0), only: missing, attempt: 2 };
      expect(messageBytes(single)).toBeGreaterThan(CLOUDFLARE_LIMITS.maxMessageBytes);

      local.simulator!.configure({ latencyMs: 0 });
      const resume = await gatewayFetch(`${local.url}/v1/jobs/${id}/resume`, { method: "POST" });
      const answer = (await resume.json()) as { status: string; resumed: number };
      expect(resume.status).toBe(200);
      expect(answer).toMatchObject({ status: "running", resumed: missing.length });
      const done = await waitForJob(local.url, id, 240_000);
      expect(done.status).toBe("completed");
      expect(done.counts).toMatchObject({ total: 6400, done: 6400, failed: 0 });
      const rollouts = await jobLines(local.url, id, "rollouts");
      expect(rollouts).toHaveLength(6400);
      expect(new Set(rollouts.map((r) => r._ng_rollout_id)).size).toBe(6400);
    } finally {
      await local.stop();
    }
  }, 300_000);
});

describe("a resume that fails", () => {
  it("answers 503 resume_failed and leaves the job exactly as it was: cancelled stays cancelled, failures stay recorded", async () => {
    const local = await startTestLocal({
      environments: ["example_single_tool_call"],
      simulator: { latencyMs: 200, faults: { errorRate: 0.5 } },
      vars: {
        // Every send of the Job objects fails (their resume and their heals); the gateway's own sends do not.
        writer: { CHAOS_QUEUE_SEND_FAILURE_RATE: "1" },
        // Failures at once (one attempt), and few rollouts at a time, so the cancelled job still misses most of its own.
        agent: { MAX_ATTEMPTS: "1", RETRY_BASE_SECONDS: "0", RUNNER_SHARDS: "2", RUNNER_MAX_IN_FLIGHT: "8" },
        modelProxy: { MODEL_MAX_RETRIES: "0" },
      },
    });
    try {
      const rows = (n: number) =>
        Array.from({ length: n }, (_, i) => JSON.stringify({ responses_create_params: { input: `weather in Bergen, day ${i}?` } })).join("\n");
      // A completed job with failures (a resume would run them again) …
      const withFailures = (await createJob(local.url, rows(6), { environment: "example_single_tool_call", num_repeats: "2" })).body.id as string;
      const completed = await waitForJob(local.url, withFailures, 60_000);
      expect(completed.status).toBe("completed");
      expect(completed.counts.failed).toBeGreaterThan(0);
      // … and a cancelled one with rollouts missing.
      const big = (await createJob(local.url, rows(50), { environment: "example_single_tool_call", num_repeats: "4" })).body.id as string;
      for (let info = await jobInfo(local.url, big); info.counts.done + info.counts.failed < 2; info = await jobInfo(local.url, big)) await sleep(20);
      await gatewayFetch(`${local.url}/v1/jobs/${big}`, { method: "DELETE" });
      const cancelled = await settled(local.url, big);
      expect(cancelled.status).toBe("cancelled");
      expect(cancelled.counts.done + cancelled.counts.failed).toBeLessThan(200);

      for (const [id, before] of [
        [withFailures, completed],
        [big, cancelled],
      ] as const) {
        const failuresBefore = await jobLines(local.url, id, "failures");
        const resume = await gatewayFetch(`${local.url}/v1/jobs/${id}/resume`, { method: "POST" });
        expect(resume.status).toBe(503);
        const { error } = (await resume.json()) as { error: { code: string; message: string } };
        expect(error.code).toBe("resume_failed");
        expect(error.message).toContain(`job ${id} could not be resumed`);
        expect(error.message).toContain(`it is unchanged: ${before.status}, ${before.counts.done} done, ${before.counts.failed} failed`);
        const after = await jobInfo(local.url, id);
        expect(after.status).toBe(before.status);
        expect(after.counts).toEqual(before.counts);
        expect(await jobLines(local.url, id, "failures")).toEqual(failuresBefore);
      }
    } finally {
      await local.stop();
    }
  }, 120_000);
});

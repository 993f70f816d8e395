// Every message that reaches a dead-letter queue ends as failure records for the rollouts it stood for: a chunk's expand
// message as one per rollout of the chunk, a result that could not be written as a dead_letter failure of its rollout.
import { describe, expect, it } from "vitest";
import { encodeResult, rolloutId } from "../../contracts/messages.js";
import { createJob, jobLines, waitForJob } from "../helpers/jobs.js";
import { startTestLocal } from "../helpers/local.js";

const ENVIRONMENT = "example_single_tool_call";
const rows = (n: number) => Array.from({ length: n }, (_, i) => JSON.stringify({ responses_create_params: { input: `weather in city ${i}?` } })).join("\n");

describe("the rollouts dead-letter queue", () => {
  it("an expand message the queue gives up on becomes one dead_letter failure per rollout of its chunk", async () => {
    // Every send to a queue fails: no chunk can be expanded, so its expand message exhausts its deliveries. (Without
    // rollout runners: with them, a chunk expands into the runners, not the queue; the next test is theirs.)
    const local = await startTestLocal({
      environments: [ENVIRONMENT],
      vars: { agent: { RETRY_BASE_SECONDS: "0", CHAOS_QUEUE_SEND_FAILURE_RATE: "1", RUNNER_SHARDS: "0" } },
    });
    try {
      const created = await createJob(local.url, rows(3), { environment: ENVIRONMENT, num_repeats: "2" });
      const info = await waitForJob(local.url, created.body.id);
      expect(info.status).toBe("completed");
      expect(info.counts).toMatchObject({ total: 6, done: 0, failed: 6 });
      expect(info.counts.failed_by_class.dead_letter).toBe(6);
      const failures = await jobLines(local.url, info.id, "failures");
      expect(failures.map((f) => [f._ng_task_index, f._ng_rollout_index])).toEqual([
        [0, 0],
        [0, 1],
        [1, 0],
        [1, 1],
        [2, 0],
        [2, 1],
      ]);
      // NeMo Gym's class for it is `transient`: retried on resume.
      for (const failure of failures) expect(failure).toMatchObject({ failure_class: "dead_letter", _ng_failure_class: "transient", environment: ENVIRONMENT });
    } finally {
      await local.stop();
    }
  });

  it("in a rollout runner, a rollout whose result can never be sent ends, its runs spent, as one dead_letter failure", async () => {
    // The runners take the chunk (no queue send), run each rollout, and every send of its result fails.
    const local = await startTestLocal({
      environments: [ENVIRONMENT],
      vars: { agent: { RETRY_BASE_SECONDS: "0", MAX_ATTEMPTS: "2", CHAOS_QUEUE_SEND_FAILURE_RATE: "1", RUNNER_SHARDS: "2" } },
    });
    try {
      const created = await createJob(local.url, rows(2), { environment: ENVIRONMENT, num_repeats: "2" });
      const info = await waitForJob(local.url, created.body.id, 60_000);
      expect(info.status).toBe("completed");
      expect(info.counts).toMatchObject({ total: 4, done: 0, failed: 4 });
      expect(info.counts.failed_by_class.dead_letter).toBe(4);
      const failures = await jobLines(local.url, info.id, "failures");
      expect(failures.map((f) => f._ng_rollout_id)).toEqual([0, 1].flatMap((t) => [0, 1].map((r) => rolloutId(info.id, t, r))));
      for (const failure of failures) {
        expect(failure).toMatchObject({ failure_class: "dead_letter", _ng_failure_class: "transient" });
        expect(failure.message).toContain("ran 2 times in its runner");
      }
    } finally {
      await local.stop();
    }
  });
});

describe("the results dead-letter queue", () => {
  it("a result whose write keeps failing becomes a dead_letter failure of its rollout, and the job completes", async () => {
    // The model never answers, so only the results sent below can complete the job.
    const local = await startTestLocal({ environments: [ENVIRONMENT], vars: { writer: { RETRY_BASE_SECONDS: "0" } } });
    try {
      local.simulator!.configure({ faults: { hangRate: 1 } });
      const created = await createJob(local.url, rows(1), { environment: ENVIRONMENT, num_repeats: "2" });
      const id = created.body.id as string;
      const results = await local.miniflare.getQueueProducer<string>("RESULTS", "agent");
      // Results whose record sits in a bucket object that does not exist: they can never be written.
      for (const repeat of [0, 1]) {
        const header = {
          job_id: id,
          rollout_id: rolloutId(id, 0, repeat),
          task_index: 0,
          rollout_index: repeat,
          environment: ENVIRONMENT,
          kind: "rollout" as const,
          summary: {},
          line_key: `jobs/${id}/payloads/nowhere-${repeat}.json`,
        };
        await results.send(encodeResult({ header }), { contentType: "text" });
      }
      const info = await waitForJob(local.url, id);
      expect(info.counts).toMatchObject({ total: 2, done: 0, failed: 2 });
      expect(info.counts.failed_by_class.dead_letter).toBe(2);
      const failures = await jobLines(local.url, id, "failures");
      expect(failures.map((f) => f._ng_rollout_id).sort()).toEqual([rolloutId(id, 0, 0), rolloutId(id, 0, 1)]);
      for (const failure of failures) expect(failure.message).toContain("could not be written");
    } finally {
      local.simulator!.configure({ faults: {} });
      await local.stop();
    }
  });
});

// The queue path end to end in workerd: real local Queues, Durable Objects and R2.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { aggregateMetrics } from "../../metrics/index.js";
import type { Local } from "../../local/emulation.js";
import { PROJECT_ROOT } from "../../local/paths.js";
import { encodeResult, rolloutId } from "../../contracts/messages.js";
import { QUEUES } from "../../contracts/names.js";
import { summarize } from "../../metrics/summary.js";
import { createJob, jobInfo, jobLines, waitForJob } from "../helpers/jobs.js";
import { gatewayFetch, startTestLocal } from "../helpers/local.js";

const ENVIRONMENTS = ["example_multi_step", "example_session_state_mgmt", "example_single_tool_call", "example_tool_call_multireward"];
const example = (name: string) => readFileSync(path.join(PROJECT_ROOT, "environments", name, "data", "example.jsonl"), "utf8");

let local: Local;
beforeAll(async () => {
  local = await startTestLocal({
    environments: ENVIRONMENTS,
    vars: { agent: { RETRY_BASE_SECONDS: "0", MAX_ATTEMPTS: "2" }, modelProxy: { MODEL_MAX_RETRIES: "0" } },
  });
});
afterAll(async () => {
  await local?.stop();
});
beforeEach(() => local.simulator!.reset());

describe("a job of every bundled example dataset × 8 repeats", () => {
  it.each(ENVIRONMENTS)("%s: rows × repeats results, no duplicate ids, metrics equal to a recomputation from the JSONL", async (name) => {
    const rows = example(name).trim().split("\n").length;
    const created = await createJob(local.url, example(name), { environment: name, num_repeats: "8" });
    expect(created.status).toBe(201);
    expect(created.body.counts.total).toBe(rows * 8);
    const info = await waitForJob(local.url, created.body.id);
    expect(info.status).toBe("completed");

    const rollouts = await jobLines(local.url, info.id, "rollouts");
    const failures = await jobLines(local.url, info.id, "failures");
    expect(rollouts.length + failures.length).toBe(rows * 8);
    expect(info.counts).toMatchObject({ total: rows * 8, done: rollouts.length, failed: failures.length, queued: 0, running: 0 });
    const ids = [...rollouts, ...failures].map((r) => r._ng_rollout_id);
    expect(new Set(ids).size).toBe(ids.length);
    // Ordered by task, then repeat.
    const order = rollouts.map((r) => [r._ng_task_index, r._ng_rollout_index]);
    expect(order).toEqual([...order].sort((a, b) => a[0] - b[0] || a[1] - b[1]));

    const recomputed = aggregateMetrics(rollouts);
    const reported = info.metrics![name]!;
    for (const key of ["mean/reward", "max/reward", "min/reward", "std/reward", "pass@8/accuracy", "pass@1[avg-of-8]/accuracy"]) {
      expect(reported.agent_metrics[key], key).toBeCloseTo(recomputed.agent_metrics[key] as number, 10);
    }
  });
});

describe("exactly once", () => {
  it("a result message delivered three times writes one line and counts once", async () => {
    const created = await createJob(local.url, example("example_single_tool_call").split("\n")[0]!, { environment: "example_single_tool_call" });
    const info = await waitForJob(local.url, created.body.id);
    const [line] = await jobLines(local.url, info.id, "rollouts");
    const results = await local.miniflare.getQueueProducer("RESULTS", "agent");
    // A result the job has not seen yet (its second repeat), in the wire form the agent sends: a header line, then the record.
    const id = rolloutId(info.id, 0, 1);
    const message = encodeResult({
      header: {
        job_id: info.id,
        rollout_id: id,
        task_index: 0,
        rollout_index: 1,
        environment: "example_single_tool_call",
        kind: "rollout",
        summary: summarize(line!),
      },
      line: JSON.stringify({ ...line, _ng_rollout_index: 1, _ng_rollout_id: id }),
    });
    // Twice in one batch, then once more after it was written (a redelivery in a later batch).
    await results.send(message, { contentType: "text" });
    await results.send(message, { contentType: "text" });
    const deadline = Date.now() + 10_000;
    while ((await jobInfo(local.url, info.id)).counts.done < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    await results.send(message, { contentType: "text" });
    // Time for another write, were there one.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await jobLines(local.url, info.id, "rollouts")).map((r) => r._ng_rollout_id)).toEqual([line!._ng_rollout_id, id]);
    expect((await jobInfo(local.url, info.id)).counts.done).toBe(2);
  });
});

describe("failures are records, and a job always completes", () => {
  it("a rollout whose model always fails becomes one failure record after its attempt budget", async () => {
    for (let i = 0; i < 10; i++) local.simulator!.script({ status: 503, error: "overloaded" });
    const created = await createJob(local.url, example("example_single_tool_call").split("\n")[0]!, { environment: "example_single_tool_call" });
    const info = await waitForJob(local.url, created.body.id);
    expect(info.status).toBe("completed");
    expect(info.counts).toMatchObject({ done: 0, failed: 1 });
    const [failure] = await jobLines(local.url, info.id, "failures");
    expect(failure).toMatchObject({ _ng_task_index: 0, _ng_rollout_index: 0, failure_class: "model_error", attempts: 2 });
    expect(failure!.message).toContain("503");
  });

  it("a large rollout travels through the bucket by pointer and lands whole", async () => {
    const big = "x".repeat(150_000);
    local.simulator!.script({ content: big });
    const created = await createJob(local.url, JSON.stringify({ responses_create_params: { input: "say a lot" } }), {
      environment: "example_single_tool_call",
    });
    const info = await waitForJob(local.url, created.body.id);
    const [record] = await jobLines(local.url, info.id, "rollouts");
    expect(record!.response.output.at(-1).content[0].text).toBe(big);
    const bucket = await local.miniflare.getR2Bucket("BUCKET", "writer");
    const payloads = await bucket.list({ prefix: `jobs/${info.id}/payloads/` });
    expect(payloads.objects).toHaveLength(1);
  });
});

describe("bad uploads", () => {
  it("a malformed JSONL upload gets line-numbered errors with the field, and enqueues nothing", async () => {
    const good = example("example_single_tool_call").split("\n")[0]!;
    const jsonl = [good, "{oops", JSON.stringify({ responses_create_params: { input: [{ role: "robot", content: "x" }] } }), good].join("\n");
    const bucket = await local.miniflare.getR2Bucket("BUCKET", "writer");
    const objects = async () => (await bucket.list({ prefix: "jobs/" })).objects.length;
    const listJobs = async () => ((await (await gatewayFetch(`${local.url}/v1/jobs`)).json()) as { data: unknown[] }).data.length;
    const before = await listJobs();
    const objectsBefore = await objects();
    const created = await createJob(local.url, jsonl, { environment: "example_single_tool_call" });
    expect(created.status).toBe(400);
    expect(created.body.error.code).toBe("invalid_rows");
    expect(created.body.error.issues).toEqual([
      { line: 2, path: [], message: expect.stringContaining("not valid JSON") },
      { line: 3, path: ["responses_create_params", "input", 0, "role"], message: expect.any(String) },
    ]);
    expect(await listJobs()).toBe(before);
    // The inputs chunk written before the bad lines were found is gone again.
    expect(await objects()).toBe(objectsBefore);
  });

  it("with skip_invalid the bad lines are listed and the rest run", async () => {
    const good = example("example_single_tool_call").split("\n")[0]!;
    const created = await createJob(local.url, [good, "not json", good].join("\n"), { environment: "example_single_tool_call", skip_invalid: "true" });
    expect(created.status).toBe(201);
    expect(created.body.skipped_lines).toEqual([{ line: 2, field: "", message: expect.stringContaining("not valid JSON") }]);
    const info = await waitForJob(local.url, created.body.id);
    expect((await jobLines(local.url, info.id, "rollouts")).map((r) => r._ng_task_index)).toEqual([0, 2]);
  });

  it("an unknown environment and bad options are 4xx naming them", async () => {
    expect((await createJob(local.url, "{}", { environment: "nope" })).status).toBe(404);
    const bad = await createJob(local.url, "{}", { environment: "example_single_tool_call", num_repeats: "0" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues[0].path).toEqual(["num_repeats"]);
  });
});

describe("rows from the bucket, and params merged into each row", () => {
  it("rows_key names an object already in the bucket; responses_create_params are shallow-merged", async () => {
    const bucket = await local.miniflare.getR2Bucket("BUCKET", "gateway");
    await bucket.put("datasets/weather.jsonl", example("example_single_tool_call"));
    const response = await gatewayFetch(`${local.url}/v1/jobs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        environment: "example_single_tool_call",
        rows_key: "datasets/weather.jsonl",
        num_repeats: 2,
        limit: 2,
        responses_create_params: { temperature: 0.25 },
      }),
    });
    expect(response.status).toBe(201);
    const info = await waitForJob(local.url, ((await response.json()) as { id: string }).id);
    const rollouts = await jobLines(local.url, info.id, "rollouts");
    expect(rollouts).toHaveLength(4);
    expect(rollouts[0]!.responses_create_params.temperature).toBe(0.25);
    expect(local.simulator!.requests.every((r) => (r as { temperature?: number }).temperature === 0.25)).toBe(true);
  });
});

describe("cancel and resume", () => {
  it("cancel drops queued work; resume runs only what has no result; nothing is duplicated", async () => {
    const slow = await startTestLocal({
      environments: ["example_single_tool_call"],
      simulator: { latencyMs: 150 },
      vars: { agent: { BATCH_CONCURRENCY: "2" } },
    });
    try {
      const rows = Array.from({ length: 10 }, (_, i) => JSON.stringify({ responses_create_params: { input: `weather in Paris, day ${i}?` } })).join("\n");
      const created = await createJob(slow.url, rows, { environment: "example_single_tool_call", num_repeats: "2" });
      const cancelled = (await (await gatewayFetch(`${slow.url}/v1/jobs/${created.body.id}`, { method: "DELETE" })).json()) as { status: string };
      expect(cancelled.status).toBe("cancelled");
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const stopped = await jobInfo(slow.url, created.body.id);
      expect(stopped.status).toBe("cancelled");
      const partial = stopped.counts.done + stopped.counts.failed;
      expect(partial).toBeLessThan(20);

      const resumed = (await (await gatewayFetch(`${slow.url}/v1/jobs/${created.body.id}/resume`, { method: "POST" })).json()) as { resumed: number };
      expect(resumed.resumed).toBe(20 - partial);
      const done = await waitForJob(slow.url, created.body.id);
      expect(done.status).toBe("completed");
      const rollouts = await jobLines(slow.url, created.body.id, "rollouts");
      expect(rollouts).toHaveLength(20);
      expect(new Set(rollouts.map((r) => r._ng_rollout_id)).size).toBe(20);
    } finally {
      await slow.stop();
    }
  });
});

describe("cancel with rollout runners", () => {
  it("rollouts already handed to the runners stop too: no record lands after the cancel settles; resume finishes the rest", async () => {
    const slow = await startTestLocal({
      environments: ["example_single_tool_call"],
      simulator: { latencyMs: 200 },
      vars: { agent: { RUNNER_SHARDS: "2", RUNNER_MAX_IN_FLIGHT: "4" } },
    });
    try {
      const rows = Array.from({ length: 4 }, (_, i) => JSON.stringify({ responses_create_params: { input: `weather in Oslo, day ${i}?` } })).join("\n");
      const created = await createJob(slow.url, rows, { environment: "example_single_tool_call", num_repeats: "50" });
      // Running in the runners: the job's whole chunk is theirs by now.
      for (let info = await jobInfo(slow.url, created.body.id); info.counts.done < 4; info = await jobInfo(slow.url, created.body.id)) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await gatewayFetch(`${slow.url}/v1/jobs/${created.body.id}`, { method: "DELETE" });
      // What was mid-call when the cancel came may still land (within a second or two); nothing after that.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      const settled = await jobInfo(slow.url, created.body.id);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const later = await jobInfo(slow.url, created.body.id);
      expect(later.status).toBe("cancelled");
      expect(later.counts.done).toBe(settled.counts.done);
      expect(later.counts.done).toBeLessThan(200);

      await gatewayFetch(`${slow.url}/v1/jobs/${created.body.id}/resume`, { method: "POST" });
      slow.simulator!.configure({ latencyMs: 0 });
      const done = await waitForJob(slow.url, created.body.id, 90_000);
      expect(done.status).toBe("completed");
      const rollouts = await jobLines(slow.url, created.body.id, "rollouts");
      expect(new Set(rollouts.map((r) => r._ng_rollout_id)).size).toBe(200);
      expect(rollouts).toHaveLength(200);
    } finally {
      await slow.stop();
    }
  }, 150_000);
});

describe("cancel with rollout runners, while the job's chunks still wait for room", () => {
  it("hands no more chunks over once cancelled: no record lands after the cancel settles", async () => {
    const slow = await startTestLocal({
      environments: ["example_single_tool_call"],
      simulator: { latencyMs: 200 },
      vars: { agent: { RUNNER_SHARDS: "1", RUNNER_MAX_IN_FLIGHT: "4" } },
    });
    try {
      // 400 rows in 4 chunks of 100, × 5: each chunk's 500 rollouts wait for room in the one runner behind the first's.
      const rows = Array.from({ length: 400 }, (_, i) => JSON.stringify({ responses_create_params: { input: `weather in Lyon, day ${i}?` } })).join("\n");
      const created = await createJob(slow.url, rows, { environment: "example_single_tool_call", num_repeats: "5" });
      for (let info = await jobInfo(slow.url, created.body.id); info.counts.done < 4; info = await jobInfo(slow.url, created.body.id)) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await gatewayFetch(`${slow.url}/v1/jobs/${created.body.id}`, { method: "DELETE" });
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      const settled = await jobInfo(slow.url, created.body.id);
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      const later = await jobInfo(slow.url, created.body.id);
      expect(later.status).toBe("cancelled");
      expect(later.counts.done).toBe(settled.counts.done);
      expect(later.counts.done).toBeLessThan(200);
    } finally {
      await slow.stop();
    }
  }, 120_000);
});

describe("cancel, then resume soon after, with rollout runners", () => {
  it("the resumed rollouts run (a runner's memory of the cancel must not drop them): the job completes, each rollout once", async () => {
    const slow = await startTestLocal({
      environments: ["example_single_tool_call"],
      simulator: { latencyMs: 100 },
      vars: { agent: { RUNNER_SHARDS: "1", RUNNER_MAX_IN_FLIGHT: "2" } },
    });
    try {
      const rows = Array.from({ length: 2 }, (_, i) => JSON.stringify({ responses_create_params: { input: `weather in Rome, day ${i}?` } })).join("\n");
      const created = await createJob(slow.url, rows, { environment: "example_single_tool_call", num_repeats: "20" });
      for (let info = await jobInfo(slow.url, created.body.id); info.counts.done < 2; info = await jobInfo(slow.url, created.body.id)) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await gatewayFetch(`${slow.url}/v1/jobs/${created.body.id}`, { method: "DELETE" });
      // Long enough for the runner to drop a waiting rollout and remember the job as cancelled.
      await new Promise((resolve) => setTimeout(resolve, 400));
      await gatewayFetch(`${slow.url}/v1/jobs/${created.body.id}/resume`, { method: "POST" });
      const done = await waitForJob(slow.url, created.body.id, 60_000);
      expect(done.status).toBe("completed");
      const rollouts = await jobLines(slow.url, created.body.id, "rollouts");
      expect(new Set(rollouts.map((r) => r._ng_rollout_id)).size).toBe(40);
    } finally {
      await slow.stop();
    }
  }, 120_000);
});

describe("the dead-letter queue", () => {
  it("a message the runtime gives up on still becomes one failure record", async () => {
    // An agent budget above the queue's retries: the queue gives up first and the message goes to the DLQ. (The consumer
    // runs its batches itself here: rollouts handed to a runner are retried there, within MAX_ATTEMPTS, not redelivered.)
    const dlq = await startTestLocal({
      environments: ["example_single_tool_call"],
      vars: { agent: { RETRY_BASE_SECONDS: "0", MAX_ATTEMPTS: "50", RUNNER_SHARDS: "0" }, modelProxy: { MODEL_MAX_RETRIES: "0" } },
    });
    try {
      for (let i = 0; i < 20; i++) dlq.simulator!.script({ status: 500, error: "boom" });
      const created = await createJob(dlq.url, JSON.stringify({ responses_create_params: { input: "weather in sf?" } }), {
        environment: "example_single_tool_call",
      });
      const info = await waitForJob(dlq.url, created.body.id);
      expect(info.counts).toMatchObject({ done: 0, failed: 1 });
      const [failure] = await jobLines(dlq.url, info.id, "failures");
      expect(failure).toMatchObject({ failure_class: "dead_letter", _ng_task_index: 0, _ng_rollout_index: 0 });
      expect(QUEUES.rolloutsDlq).toBe("edgegym-rollouts-dlq");
    } finally {
      await dlq.stop();
    }
  });
});

describe("judge failures", () => {
  it("a failed judge call is a failure record (not a scored rollout), and resume runs it again", async () => {
    const judged = await startTestLocal({
      environments: ["equivalence_llm_judge"],
      vars: { agent: { RETRY_BASE_SECONDS: "0" }, modelProxy: { MODEL_MAX_RETRIES: "0" }, judgeProxy: { MODEL_MAX_RETRIES: "0" } },
    });
    try {
      const row = readFileSync(path.join(PROJECT_ROOT, "environments", "equivalence_llm_judge", "data", "example.jsonl"), "utf8").split("\n")[0]!;
      // The policy answers; then every judge call fails.
      judged.simulator!.script({ content: "The answer is 42." });
      for (let i = 0; i < 10; i++) judged.simulator!.script({ status: 500, error: "judge down" });
      const created = await createJob(judged.url, row, { environment: "equivalence_llm_judge" });
      const failed = await waitForJob(judged.url, created.body.id);
      expect(failed.counts).toMatchObject({ done: 0, failed: 1 });
      const [failure] = await jobLines(judged.url, failed.id, "failures");
      expect(failure).toMatchObject({ failure_class: "judge_failed", reward: 0 });
      expect(failure!.message).toContain("500");

      judged.simulator!.reset();
      const resumed = (await (await gatewayFetch(`${judged.url}/v1/jobs/${failed.id}/resume`, { method: "POST" })).json()) as { resumed: number };
      expect(resumed.resumed).toBe(1);
      const done = await waitForJob(judged.url, failed.id);
      expect(done.counts).toMatchObject({ done: 1, failed: 0 });
      expect(await jobLines(judged.url, failed.id, "failures")).toHaveLength(0);
      expect(await jobLines(judged.url, failed.id, "rollouts")).toHaveLength(1);
    } finally {
      await judged.stop();
    }
  });
});

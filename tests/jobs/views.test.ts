// A job seen without downloading it: GET /v1/jobs/:id/summary and /records, answered by the Job object in workerd.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JobSummary } from "../../contracts/job-views.js";
import type { Local } from "../../local/emulation.js";
import { createJob, jobLines, waitForJob } from "../helpers/jobs.js";
import { gatewayFetch, startTestLocal } from "../helpers/local.js";
import { exampleRows, MIXED_ENVIRONMENTS, mixedJobRows } from "../helpers/mixed-job.js";

let local: Local;
let id: string;

async function get(path: string): Promise<{ status: number; body: any }> {
  const response = await gatewayFetch(`${local.url}${path}`);
  return { status: response.status, body: await response.json() };
}

/** Bars with a count, as [from, count]. */
const filled = (h: { bins: { from: number; count: number }[] } | null | undefined) => h?.bins.filter((b) => b.count).map((b) => [b.from, b.count]);

beforeAll(async () => {
  local = await startTestLocal({ environments: MIXED_ENVIRONMENTS, vars: { agent: { RETRY_BASE_SECONDS: "0", MAX_ATTEMPTS: "2" } } });
  const created = await createJob(local.url, mixedJobRows(), { num_repeats: "4" });
  expect(created.status).toBe(201);
  id = created.body.id;
  expect((await waitForJob(local.url, id)).status).toBe("completed");
});
afterAll(async () => {
  await local?.stop();
});

describe("GET /v1/jobs/:id/summary", () => {
  it("tallies environments, spreads rewards and components into histograms, rates each task, counts failures by class", async () => {
    const { status, body } = await get(`/v1/jobs/${id}/summary`);
    expect(status).toBe(200);
    const summary = body as JobSummary;
    expect(summary.environments).toEqual([
      { environment: "example_multi_step", rollouts: 20, failures: 4, mean_reward: 0.6 },
      { environment: "example_tool_call_multireward", rollouts: 20, failures: 0, mean_reward: 2 },
    ]);
    // Rewards 0, 1 and 2 over [0, 2] in ten bars.
    expect(summary.reward).toMatchObject({ count: 40, min: 0, max: 2, mean: 1.3 });
    expect(filled(summary.reward)).toEqual([
      [0, 8],
      [1, 12],
      [1.8, 20],
    ]);
    expect(Object.keys(summary.components)).toEqual(["correctness", "format", "schema_valid"]);
    expect(filled(summary.components.correctness)).toEqual([[0.9, 20]]);
    expect(filled(summary.components.format)).toEqual([[0, 20]]);
    expect(summary.tasks_total).toBe(10);
    expect(summary.tasks.map((t) => [t.task_index, t.passed, t.rollouts])).toEqual([
      [0, 4, 4],
      [1, 4, 4],
      [2, 4, 4],
      [3, 0, 4],
      [4, 0, 4],
      [5, 4, 4],
      [6, 4, 4],
      [7, 4, 4],
      [8, 4, 4],
      [9, 4, 4],
    ]);
    expect(filled(summary.task_pass_rates)).toEqual([
      [0, 2],
      [0.9, 8],
    ]);
    // By class, as the job status counts them (contracts/failures.ts): a failed seed is a tool_error.
    expect(summary.failures).toEqual({ tool_error: 4 });
  });

  it("narrows to one environment, takes a pass threshold, bins and a task limit", async () => {
    const { body } = await get(`/v1/jobs/${id}/summary?environment=example_multi_step&pass_threshold=0.5&bins=2&task_limit=2`);
    const summary = body as JobSummary;
    expect(summary.environments.map((e) => e.environment)).toEqual(["example_multi_step"]);
    expect(summary.reward!.bins).toEqual([
      { from: 0, to: 0.5, count: 8 },
      { from: 0.5, to: 1, count: 12 },
    ]);
    expect(summary.components).toEqual({});
    expect(summary.pass_threshold).toBe(0.5);
    expect(summary.tasks.map((t) => t.task_index)).toEqual([0, 1]);
    expect(summary.tasks_total).toBe(5);
    // By class, as the job status counts them (contracts/failures.ts): a failed seed is a tool_error.
    expect(summary.failures).toEqual({ tool_error: 4 });
  });

  it("answers 404 for an unknown job and 400 for a bad query", async () => {
    expect((await get("/v1/jobs/job_nosuchjob/summary")).status).toBe(404);
    const bad = await get(`/v1/jobs/${id}/summary?bins=0`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues[0].path).toEqual(["bins"]);
  });
});

describe("GET /v1/jobs/:id/records", () => {
  it("pages through every result in task-then-repeat order, each with the record the JSONL holds", async () => {
    const rollouts = new Map((await jobLines(local.url, id, "rollouts")).map((r) => [r._ng_rollout_id, r]));
    const { body } = await get(`/v1/jobs/${id}/records?offset=38&limit=4`);
    expect(body.total).toBe(44);
    expect(body.data.map((e: any) => [e.task_index, e.rollout_index, e.kind, e.position])).toEqual([
      [9, 2, "rollout", 38],
      [9, 3, "rollout", 39],
      [10, 0, "failure", 40],
      [10, 1, "failure", 41],
    ]);
    expect(body.data[0].record).toEqual(rollouts.get(body.data[0].rollout_id));
    expect(body.data[0].reward).toBe(2);
    expect(body.data[2]).toMatchObject({ reward: null, failure_class: "tool_error", record: { failure_class: "tool_error", failure_code: "seed_failed" } });
  });

  it("filters by reward range, failure class and environment; `at` finds a rollout's position", async () => {
    const ones = (await get(`/v1/jobs/${id}/records?min_reward=0.5&max_reward=1.5&limit=100&records=false`)).body;
    expect(ones.total).toBe(12);
    expect(ones.data.every((e: any) => e.reward === 1 && e.kind === "rollout" && e.record === undefined)).toBe(true);
    const failures = (await get(`/v1/jobs/${id}/records?failure_class=tool_error&limit=1`)).body;
    expect(failures.total).toBe(4);
    expect(failures.data[0].record.message).toContain("expected_synonym_values");
    expect((await get(`/v1/jobs/${id}/records?failure_class=tool_timeout`)).body.total).toBe(0);
    const reward = (await get(`/v1/jobs/${id}/records?kind=rollout&environment=example_tool_call_multireward&limit=1`)).body;
    expect(reward.total).toBe(20);
    expect(reward.data[0].record.reward_components).toEqual({ correctness: 1, schema_valid: 1, format: 0 });
    const at = (await get(`/v1/jobs/${id}/records?kind=rollout&at=3:2&limit=1`)).body;
    expect(at.offset).toBe(14);
    expect(at.data[0]).toMatchObject({ task_index: 3, rollout_index: 2, position: 14, reward: 0 });
  });

  it("answers 404 for an unknown job and 400 for a bad query", async () => {
    expect((await get("/v1/jobs/job_nosuchjob/records")).status).toBe(404);
    const bad = await get(`/v1/jobs/${id}/records?at=three`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues[0].path).toEqual(["at"]);
  });
});

describe("environment examples", () => {
  it("GET /v1/environments offers each environment's first example row; its NeMo Gym /tools answer is unchanged", async () => {
    const { body } = await get("/v1/environments");
    for (const name of MIXED_ENVIRONMENTS) {
      expect(body.data.find((e: any) => e.name === name).examples).toEqual([exampleRows(name)[0]]);
    }
    const tools = await get("/v1/environments/example_multi_step/tools");
    expect(tools.status).toBe(200);
    expect(tools.body.examples).toBeUndefined();
    expect(tools.body.environment).toBe("example_multi_step");
  });
});

// The bad-input corpus against the local emulation: every case a 4xx in the envelope, none a 5xx, a hang or a crash, and
// what the gateway had accepted before (a job, its results, a session's state, the bucket's objects) unchanged after.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import { createJob, jobInfo, jobLines, waitForJob } from "../helpers/jobs.js";
import { gatewayFetch, postJson, startTestLocal } from "../helpers/local.js";
import { type CorpusTargets, corpus, runCorpus } from "./corpus.js";

const TARGETS: Omit<CorpusTargets, "jobId"> = {
  simple: { name: "example_single_tool_call", tool: "get_weather" },
  stateful: { name: "example_session_state_mgmt", tool: "increment_counter" },
  gymnasium: "example_multi_turn_gymnasium",
};

let local: Local & { token?: string };
beforeAll(async () => {
  local = await startTestLocal({ environments: [TARGETS.simple.name, TARGETS.stateful.name, TARGETS.gymnasium] });
});
afterAll(async () => {
  await local?.stop();
});

async function bucketKeys(): Promise<string[]> {
  const bucket = await local.miniflare.getR2Bucket("BUCKET", "writer");
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix: "", ...(cursor ? { cursor } : {}) });
    keys.push(...page.objects.map((o) => o.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return keys.sort();
}

describe("the bad-input corpus", () => {
  it("every malformed input gets a 4xx in the error envelope, and what was accepted before is unchanged", { timeout: 240_000 }, async () => {
    // State accepted before the corpus: a completed job and a session holding a count.
    const created = await createJob(local.url, `${JSON.stringify({ responses_create_params: { input: "weather in sf?" } })}\n`, {
      environment: TARGETS.simple.name,
      num_repeats: "2",
    });
    expect(created.status).toBe(201);
    const job = await waitForJob(local.url, created.body.id);
    const seeded = await postJson(`${local.url}/v1/environments/${TARGETS.stateful.name}/seed_session`, {
      responses_create_params: { input: "count" },
      initial_count: 5,
    });
    const session = { "x-session-id": seeded.headers.get("x-session-id")! };
    await postJson(`${local.url}/v1/environments/${TARGETS.stateful.name}/increment_counter`, { count: 2 }, session);
    const before = {
      keys: await bucketKeys(),
      jobs: ((await (await gatewayFetch(`${local.url}/v1/jobs`)).json()) as { data: { id: string }[] }).data.map((j) => j.id),
      info: await jobInfo(local.url, job.id),
      rollouts: await jobLines(local.url, job.id, "rollouts"),
    };

    const cases = corpus({ ...TARGETS, jobId: job.id });
    expect(cases.length).toBeGreaterThanOrEqual(200);
    // Every route but /health needs a token: the corpus sends the run's (a request without one is a 401, never reaching the checks).
    const { problems } = await runCorpus(local.url, cases, { token: local.token, concurrency: 4, timeoutMs: 60_000 });
    expect(problems).toEqual([]);

    // Nothing accepted before changed: the same jobs, objects, status and results; the session keeps its count.
    expect(((await (await gatewayFetch(`${local.url}/v1/jobs`)).json()) as { data: { id: string }[] }).data.map((j) => j.id)).toEqual(before.jobs);
    expect(await bucketKeys()).toEqual(before.keys);
    const after = await jobInfo(local.url, job.id);
    expect({ ...after, elapsed_seconds: 0 }).toEqual({ ...before.info, elapsed_seconds: 0 });
    expect(await jobLines(local.url, job.id, "rollouts")).toEqual(before.rollouts);
    const counter = await postJson(`${local.url}/v1/environments/${TARGETS.stateful.name}/get_counter_value`, {}, session);
    expect(counter.body).toEqual({ count: 7 });
  });
});

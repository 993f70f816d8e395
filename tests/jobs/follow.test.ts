// Results as they land: the gateway's follow mode, `jobs results --follow`, and `collect` writing each record on arrival.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import { PROJECT_ROOT } from "../../local/paths.js";
import { edgegym, tokenEnv } from "../helpers/cli.js";
import { FIXTURES, readJsonl } from "../helpers/fixtures.js";
import { createJob, jobInfo, waitForJob } from "../helpers/jobs.js";
import { gatewayFetch, startTestLocal } from "../helpers/local.js";

const ENVIRONMENT = "example_single_tool_call";
const rows = (n: number) =>
  `${Array.from({ length: n }, (_, i) => JSON.stringify({ responses_create_params: { input: `weather in sf, day ${i}?` } })).join("\n")}\n`;
const lineCount = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean).length : 0);

let local: Local;
let dir: string;
beforeAll(async () => {
  // A slow model and two rollouts at a time: the job runs for a few seconds, long enough to watch its results land.
  local = await startTestLocal({
    environments: [ENVIRONMENT],
    simulator: { latencyMs: 150 },
    vars: { agent: { RUNNER_SHARDS: "1", RUNNER_MAX_IN_FLIGHT: "2", BATCH_CONCURRENCY: "2" } },
  });
  dir = mkdtempSync(path.join(tmpdir(), "edgegym-follow-"));
});
afterAll(async () => {
  await local?.stop();
});

describe("GET /v1/jobs/:id/rollouts?follow=true", () => {
  it("sends each scored rollout while the job still runs, then every one exactly once, and ends with the job", async () => {
    const created = await createJob(local.url, rows(8), { environment: ENVIRONMENT, num_repeats: "2" });
    const response = await gatewayFetch(`${local.url}/v1/jobs/${created.body.id}/rollouts?follow=true`);
    expect(response.status).toBe(200);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    let statusAtFirst: string | undefined;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
      if (statusAtFirst === undefined && text.includes("\n")) statusAtFirst = (await jobInfo(local.url, created.body.id)).status;
    }
    expect(statusAtFirst).toBe("running");
    const records = text
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { _ng_rollout_id: string; reward: number });
    expect(records).toHaveLength(16);
    expect(new Set(records.map((r) => r._ng_rollout_id)).size).toBe(16);
    expect((await jobInfo(local.url, created.body.id)).status).toBe("completed");
  });

  it("edgegym jobs results --follow writes the records to the file as the job goes, and all of them by its end", async () => {
    const created = await createJob(local.url, rows(6), { environment: ENVIRONMENT, num_repeats: "2" });
    const out = path.join(dir, "followed.jsonl");
    const result = await edgegym(["jobs", "results", created.body.id, "--follow", "-o", out, "--url", local.url]);
    expect(result.code).toBe(0);
    expect(new Set(readJsonl(out).map((r) => r._ng_rollout_id)).size).toBe(12);
    expect((await waitForJob(local.url, created.body.id)).counts.done).toBe(12);
  });
});

describe("edgegym collect through a job", () => {
  it("has records in the output before the job ends, and all of them, in task-then-repeat order, after", async () => {
    const out = path.join(dir, "collected.jsonl");
    const input = path.join(FIXTURES, ENVIRONMENT, "example.jsonl");
    const args = ["collect", "--url", local.url, "-e", ENVIRONMENT, "-i", input, "-o", out, "-n", "4"];
    const child = spawn(process.execPath, [path.join(PROJECT_ROOT, "bin", "edgegym.js"), ...args], { cwd: PROJECT_ROOT, env: tokenEnv(args) });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    // Watched while the job runs: a record on disk with the job not yet done.
    let seenEarly = 0;
    let ended: number | null | undefined;
    void exited.then((code) => (ended = code));
    while (ended === undefined) {
      const id = /job (job_\w+)/.exec(stderr)?.[1];
      const lines = lineCount(out);
      if (id && lines > 0 && lines < 20 && (await jobInfo(local.url, id)).status === "running") seenEarly = lines;
      if (seenEarly) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await exited).toBe(0);
    expect(seenEarly).toBeGreaterThan(0);
    const records = readJsonl(out);
    expect(records.map((r) => [r._ng_task_index, r._ng_rollout_index])).toEqual(Array.from({ length: 5 }, (_, t) => [0, 1, 2, 3].map((r) => [t, r])).flat());
  });
});

// A job cancelled on the AWS path (a jobs bucket, read once the job has ended): collect stops with JobCancelled, the
// rollouts that landed written in order; a cancel after every rollout had its result is a complete collection.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { collectJob, type CollectTarget, JobCancelled } from "../../local/cli/collect-jobs.js";
import type { JobSnapshot } from "../../local/cli/gateway-client.js";
import { fixtureRows } from "../helpers/fixtures.js";

const dir = mkdtempSync(path.join(tmpdir(), "edgegym-cancel-bucket-"));

/** A jobs backend whose job (3 tasks × 2) ends `status` with these rollouts recorded, out of order as a bucket lists them. */
function bucket(status: JobSnapshot["status"], landed: [number, number][]): CollectTarget {
  const counts = (done: number) => ({ total: 6, queued: 0, running: 0, done, failed: 0 });
  const snapshot = (s: JobSnapshot["status"], done: number): JobSnapshot => ({
    id: "job_bucket",
    status: s,
    counts: counts(done),
    progress: done / 6,
    elapsed_seconds: 1,
    created_at: 0,
    // A bucket's job carries its metrics (there is no gateway to ask).
    metrics: { string_match: { agent_metrics: { "mean/reward": 1 }, key_metrics: {}, group_level_metrics: [] } },
  });
  const text = landed.map(([task, rollout]) => JSON.stringify({ _ng_task_index: task, _ng_rollout_index: rollout, reward: 1 })).join("\n");
  return {
    url: "s3://bucket/jobs",
    environments: async () => ["string_match"],
    create: async () => snapshot("running", 0),
    get: async () => snapshot(status, landed.length),
    lines: async (_id: string, kind: "rollouts" | "failures") => new Response(kind === "rollouts" ? `${text}\n` : "").body!,
  };
}

function input(): string {
  const file = path.join(dir, `rows-${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(
    file,
    `${fixtureRows("string_match")
      .slice(0, 3)
      .map((row) => JSON.stringify(row))
      .join("\n")}\n`,
  );
  return file;
}

describe("collect on a jobs bucket, the job cancelled", () => {
  it("rejects with JobCancelled (landed of total) and writes what landed, in order", async () => {
    const output = path.join(dir, "cancelled.jsonl");
    const run = collectJob(
      bucket("cancelled", [
        [2, 0],
        [0, 1],
        [0, 0],
      ]),
      { input: input(), output, environment: "string_match", numRepeats: 2, pollMs: 1 },
    );
    const error = await run.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobCancelled);
    expect((error as JobCancelled).message).toBe("job job_bucket was cancelled: 3 of 6 rollouts landed");
    const keys = readFileSync(output, "utf8")
      .trim()
      .split("\n")
      .map((line) => {
        const record = JSON.parse(line) as Record<string, number>;
        return [record._ng_task_index, record._ng_rollout_index];
      });
    expect(keys).toEqual([
      [0, 0],
      [0, 1],
      [2, 0],
    ]);
  });

  it("a cancel after every rollout had its result: the collection completes", async () => {
    const all: [number, number][] = [
      [0, 0],
      [0, 1],
      [1, 0],
      [1, 1],
      [2, 0],
      [2, 1],
    ];
    const summary = await collectJob(bucket("cancelled", all), {
      input: input(),
      output: path.join(dir, "whole.jsonl"),
      environment: "string_match",
      numRepeats: 2,
      pollMs: 1,
    }).catch((e: unknown) => e);
    expect(summary).not.toBeInstanceOf(Error);
    expect((summary as { rollouts: number }).rollouts).toBe(6);
  });
});

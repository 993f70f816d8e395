// The operation counters behind the bench's cost table count what a rollout really does: 4 single-step rollouts (one job
// of 4 rows) through the local emulation, and every count compared with the code path it comes from.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobTally, runJob, SINGLE_TOOL } from "../../bench/cpu/workload.js";
import type { WorkerCounts } from "../../local/counting.js";
import type { Local } from "../../local/emulation.js";
import { startTestLocal } from "../helpers/local.js";

let local: Local;
let counts: Record<string, WorkerCounts>;
const count = (worker: string, key: string) => counts[worker]?.counts[key] ?? 0;

beforeAll(async () => {
  local = await startTestLocal({ environments: [SINGLE_TOOL.environment], countOperations: true });
  const headers = { authorization: `Bearer ${local.token}` };
  await local.counts!(true);
  const job = await runJob(local.url, SINGLE_TOOL, 4, 1, 50, headers);
  expect(job.status).toBe("completed");
  // The writer's acknowledgements follow the last record by a few ms.
  await new Promise((resolve) => setTimeout(resolve, 500));
  counts = await local.counts!(true);
  const tally = await jobTally(local.url, job, headers);
  expect(tally).toMatchObject({ rollouts: 4, failed: 0, turns: 8 });
}, 180_000);

afterAll(async () => {
  await local?.stop();
});

describe("operation counts of 4 single-step rollouts (one job of 4 rows)", () => {
  it("the gateway sends the job's rows as one rollouts message, the agent's consumer takes and acks it", () => {
    expect(count("gateway", "queue.edgegym-rollouts.sent")).toBe(1);
    expect(count("agent", "queue.edgegym-rollouts.delivered")).toBe(1);
    expect(count("agent", "queue.edgegym-rollouts.acked")).toBe(1);
    expect(count("gateway", "do.Job.call.create")).toBe(1);
  });

  it("each rollout goes to a runner, calls the model twice, the tool once, and sends one result the writer acks", () => {
    expect(count("agent", "do.RolloutRunner.call.accept")).toBe(4);
    expect(count("agent", "service.model-proxy.respond")).toBe(8);
    expect(count("agent", "service.resources-example-single-tool-call.seed")).toBe(4);
    expect(count("agent", "service.resources-example-single-tool-call.tool")).toBe(4);
    expect(count("agent", "service.resources-example-single-tool-call.verify")).toBe(4);
    expect(count("agent", "queue.edgegym-results.sent")).toBe(4);
    expect(count("writer", "queue.edgegym-results.delivered")).toBe(4);
    expect(count("writer", "queue.edgegym-results.acked")).toBe(4);
  });

  it("counts the Durable Objects' SQL rows and the bucket's operations", () => {
    expect(count("writer", "do.Job.rows_written")).toBeGreaterThan(0);
    expect(count("agent", "do.RolloutRunner.rows_written")).toBeGreaterThan(0);
    expect(count("gateway", "bucket.put")).toBeGreaterThan(0);
    expect(counts.agent!.objects.Job).toBe(1);
  });

  it("starts from zero after a reset", async () => {
    const again = await local.counts!(false);
    expect(again.agent!.counts).toEqual({});
  });
});

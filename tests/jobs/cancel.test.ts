// Cancel bites at once: once `DELETE /v1/jobs/<id>` answers, no rollout of the job starts; what lands after it had started.
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import { createJob, jobInfo } from "../helpers/jobs.js";
import { gatewayFetch, startTestLocal } from "../helpers/local.js";

/** Rollouts in flight at most over both runners: the window can hold no more, so no more can be running at the cancel. */
const IN_FLIGHT = 8;

let local: Local;
beforeAll(async () => {
  local = await startTestLocal({
    environments: ["example_single_tool_call"],
    // A slow model (0.1-0.3 s a call, so rollouts end at scattered times): a cancel finds most of the job waiting in the runners.
    simulator: { latencyMs: { min: 100, max: 300 } },
    vars: { agent: { RUNNER_SHARDS: "2", RUNNER_MAX_IN_FLIGHT: String(IN_FLIGHT) } },
  });
});
afterAll(async () => {
  await local?.stop();
});

/** Rollouts that have started by now: each begins with one chat completion holding only the row's input (no turn before). */
function rolloutsStarted(): number {
  return local.simulator!.requests.filter((request) => !request.messages.some((m) => m.role === "assistant" || m.role === "tool")).length;
}

describe("cancel", () => {
  it("shortly after a job starts: no rollout starts after the cancel answers, and at most those running then land", async () => {
    // 2,000 rollouts in two chunks: each runner holds 500 of the first and waits for room to take 500 of the second.
    const rows = Array.from({ length: 200 }, (_, i) => JSON.stringify({ responses_create_params: { input: `weather in Porto, day ${i}?` } })).join("\n");
    const created = await createJob(local.url, rows, { environment: "example_single_tool_call", num_repeats: "10" });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    for (let info = await jobInfo(local.url, id); info.counts.done < IN_FLIGHT; info = await jobInfo(local.url, id)) await sleep(20);

    const cancel = await gatewayFetch(`${local.url}/v1/jobs/${id}`, { method: "DELETE" });
    const startedAtCancel = rolloutsStarted();
    expect(cancel.status).toBe(200);
    const cancelled = (await cancel.json()) as { status: string; counts: { done: number; failed: number } };
    expect(cancelled.status).toBe("cancelled");
    const landedAtCancel = cancelled.counts.done + cancelled.counts.failed;

    // Settled: nothing more for 2 s (a rollout takes ~0.4 s).
    let landed = landedAtCancel;
    for (let quiet = 0; quiet < 4; ) {
      await sleep(500);
      const info = await jobInfo(local.url, id);
      const now = info.counts.done + info.counts.failed;
      quiet = now === landed ? quiet + 1 : 0;
      landed = now;
    }
    const startedAfter = rolloutsStarted() - startedAtCancel;
    const landedAfter = landed - landedAtCancel;
    process.stderr.write(
      `cancel: ${landedAtCancel} landed and ${startedAtCancel} started at the cancel; after it ${startedAfter} started, ${landedAfter} landed (of 2000)\n`,
    );
    expect(startedAfter).toBeLessThanOrEqual(IN_FLIGHT);
    expect(landedAfter).toBeLessThanOrEqual(2 * IN_FLIGHT);
    const final = await jobInfo(local.url, id);
    expect(final.status).toBe("cancelled");
    expect(final.counts.done + final.counts.failed).toBe(landed);
  }, 60_000);
});

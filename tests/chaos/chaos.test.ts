// The chaos suite, small (500 rollouts; `npm run chaos` runs 10,000): under faults everywhere, a job ends with exactly one
// record per rollout, none twice, every failure classified and counted in the job status.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import { runChaos, startChaosLocal } from "./scenario.js";

let local: Local;
beforeAll(async () => {
  local = await startChaosLocal();
});
afterAll(async () => {
  await local?.stop();
});

describe("chaos: 500 rollouts while the model, the environment, the bucket and the queues fail at random", () => {
  it("ends with exactly 500 records, none twice, none missing, every failure classified and counted", { timeout: 180_000 }, async () => {
    const report = await runChaos(local, 50, 10, 170_000);
    expect(report.problems).toEqual([]);
    expect(report.done + report.failed).toBe(500);
    // The faults did happen: this was not a quiet run.
    expect(report.modelFaults.error + report.modelFaults.hang + report.modelFaults.drop).toBeGreaterThan(0);
  });
});

// Deadlines: a model that never answers and a tool that never returns end the rollout as a timed-out failure within its
// timeout, over /run and through a job (where the failure is a record of its class, after the rollout's attempts).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import { CHAOS_ENVIRONMENT, chaosEnvironment, chaosRow } from "../chaos/setup.js";
import { createJob, jobLines, waitForJob } from "../helpers/jobs.js";
import { postJson, startTestLocal } from "../helpers/local.js";

const TIMEOUT_MS = 800;

let local: Local;
beforeAll(async () => {
  local = await startTestLocal({
    environments: ["example_single_tool_call"],
    extraEnvironments: [chaosEnvironment],
    vars: {
      agent: {
        TOOL_TIMEOUT_MS: String(TIMEOUT_MS),
        MODEL_TIMEOUT_MS: String(TIMEOUT_MS),
        ROLLOUT_TIMEOUT_MS: "10000",
        RETRY_BASE_SECONDS: "0",
        MAX_ATTEMPTS: "2",
      },
      modelProxy: { MODEL_MAX_RETRIES: "0" },
    },
  });
});
afterAll(async () => {
  await local?.stop();
});
beforeEach(() => local.simulator!.reset());

describe("a call that never answers ends its rollout as a timeout", () => {
  it("a tool that never returns: /run answers 504 tool_timeout after the tool's timeout, not the tool's hang", async () => {
    const started = Date.now();
    const answer = await postJson(`${local.url}/run?environment=${CHAOS_ENVIRONMENT}`, chaosRow({ tool_hang: 1, hang_ms: 60_000 }));
    const took = Date.now() - started;
    expect(answer.status).toBe(504);
    expect(answer.body.error).toMatchObject({ code: "tool_timeout" });
    expect(answer.body.error.message).toContain(`${TIMEOUT_MS} ms`);
    // Bounded by the tool's timeout (plus a model turn), nowhere near the 60 s hang.
    expect(took).toBeLessThan(30_000);
  });

  it("a model that never answers: /run answers 504 model_timeout", async () => {
    local.simulator!.script({ content: "late", delay_ms: 60_000 });
    const answer = await postJson(`${local.url}/run?environment=example_single_tool_call`, { responses_create_params: { input: "weather in sf?" } });
    expect(answer.status).toBe(504);
    expect(answer.body.error).toMatchObject({ code: "model_timeout" });
  });

  it("through a job: each becomes a failure record of its class, after the rollout's attempts, and the job completes", async () => {
    local.simulator!.configure({ faults: { hangRate: 1, hangMs: 60_000 } });
    try {
      const modelJob = await createJob(local.url, JSON.stringify({ responses_create_params: { input: "weather?" } }), {
        environment: "example_single_tool_call",
      });
      const model = await waitForJob(local.url, modelJob.body.id, 60_000);
      expect(model.counts).toMatchObject({ done: 0, failed: 1 });
      expect(model.counts.failed_by_class.model_timeout).toBe(1);
      expect((await jobLines(local.url, model.id, "failures"))[0]).toMatchObject({
        failure_class: "model_timeout",
        // NeMo Gym's own class for it: a timeout, never retried on resume (protocol/nemo-gym.ts).
        _ng_failure_class: "timeout_exceeded",
        _ng_failure_terminal: true,
        attempts: 2,
      });
      local.simulator!.configure({ faults: {} });
      const toolJob = await createJob(local.url, JSON.stringify(chaosRow({ tool_hang: 1, hang_ms: 60_000 })), { environment: CHAOS_ENVIRONMENT });
      const tool = await waitForJob(local.url, toolJob.body.id, 60_000);
      expect(tool.counts).toMatchObject({ done: 0, failed: 1 });
      expect(tool.counts.failed_by_class.tool_timeout).toBe(1);
      expect((await jobLines(local.url, tool.id, "failures"))[0]).toMatchObject({ failure_class: "tool_timeout", failure_code: "tool_timeout", attempts: 2 });
    } finally {
      local.simulator!.configure({ faults: {} });
    }
  });
});

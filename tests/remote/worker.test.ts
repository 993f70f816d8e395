// A remote environment's Worker in the local emulation (workerd) against the Python stand-in: /run, a job through the
// queue path with a fault switched on, NeMo Gym's routes through the gateway, and nothing of edgegym's secrets sent on.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseRemoteFile } from "../../environments/sdk/remote/config.js";
import type { Local } from "../../local/emulation.js";
import { createJob, jobLines, waitForJob } from "../helpers/jobs.js";
import { gatewayFetch, postJson, startTestLocal } from "../helpers/local.js";
import { type StandIn, startStandIn } from "./stand-in.js";

const SECRET = "stand-in-bearer-0123456789abcdef";
let server: StandIn;
let local: Local;

const row = (expected: number, extra: Record<string, unknown> = {}) => ({
  responses_create_params: {
    input: "Count once, then say done.",
    tools: [
      { type: "function", name: "count", description: "Adds one to the counter.", parameters: { type: "object", properties: {}, additionalProperties: false } },
    ],
  },
  expected_count: expected,
  ...extra,
});

beforeAll(async () => {
  server = await startStandIn();
  process.env.STAND_IN_TOKEN = SECRET;
  const text = JSON.stringify({
    remotes: [{ name: "stand_in", baseUrls: [server.url], auth: { kind: "bearer", secret: "STAND_IN_TOKEN" }, timeouts: { connectMs: 500, callMs: 5000 } }],
  });
  local = await startTestLocal({
    environments: [],
    remotes: parseRemoteFile(text, "edgegym.remote.json"),
    vars: { agent: { RETRY_BASE_SECONDS: "0", MAX_ATTEMPTS: "3" } },
  });
}, 120_000);

afterAll(async () => {
  await local?.stop();
  await server?.stop();
  delete process.env.STAND_IN_TOKEN;
});

describe("a remote environment in the emulation", () => {
  it("is listed and described like a native one", async () => {
    const listed = (await (await gatewayFetch(`${local.url}/v1/environments`)).json()) as { data: { name: string; kind: string; stateful: boolean }[] };
    expect(listed.data).toContainEqual(expect.objectContaining({ name: "stand_in", kind: "simple", stateful: true }));
  });

  it("/run scores a rollout on the server, the cookie carried from seed to verify", async () => {
    await server.fault("none");
    const answer = await postJson(`${local.url}/run?environment=stand_in`, row(1));
    expect(answer.status).toBe(200);
    expect(answer.body.reward).toBe(1);
    expect(answer.body.count).toBe(1);
    const output = answer.body.response.output.find((item: { type: string }) => item.type === "function_call_output");
    expect(output.output).toBe('{"count":1}');
  });

  it("a job through the queue path completes exactly once with 5xx on every 4th call, each rollout written once", async () => {
    await server.fault("error", { every: 4 });
    const rows = Array.from({ length: 24 }, (_, i) => JSON.stringify(row(1, { id: i }))).join("\n");
    const created = await createJob(local.url, rows, { environment: "stand_in" });
    expect(created.status).toBe(201);
    const info = await waitForJob(local.url, created.body.id, 90_000);
    expect(info.status).toBe("completed");
    const rollouts = await jobLines(local.url, created.body.id, "rollouts");
    const failures = await jobLines(local.url, created.body.id, "failures");
    expect(rollouts.length + failures.length).toBe(24);
    expect(new Set([...rollouts, ...failures].map((r) => r._ng_task_index)).size).toBe(24);
    // A 5xx on a tool is shown to the model (reward 0: the counter did not move); a 5xx on a seed is retried whole.
    for (const record of rollouts) expect([0, 1]).toContain(record.reward);
    for (const failure of failures) expect(failure.failure_class).toBe("tool_error");
    await server.fault("none");
  });

  it("the done-line: a job of 1,000 rollouts with 5xx on every 50th call completes, each rollout written exactly once", async () => {
    await server.fault("error", { every: 50 });
    const faultedBefore = (await server.seen()).faulted;
    const rows = Array.from({ length: 1000 }, (_, i) => JSON.stringify(row(1, { id: i }))).join("\n");
    const started = Date.now();
    const created = await createJob(local.url, rows, { environment: "stand_in" });
    expect(created.status).toBe(201);
    const info = await waitForJob(local.url, created.body.id, 170_000);
    const seconds = (Date.now() - started) / 1000;
    expect(info.status).toBe("completed");
    expect(info.counts.done + info.counts.failed).toBe(1000);
    const rollouts = await jobLines(local.url, created.body.id, "rollouts");
    const failures = await jobLines(local.url, created.body.id, "failures");
    expect(rollouts.length + failures.length).toBe(1000);
    expect(new Set([...rollouts, ...failures].map((r) => r._ng_task_index)).size).toBe(1000);
    expect(rollouts.filter((r) => r.reward === 1).length).toBeGreaterThan(900);
    for (const failure of failures) expect(failure.failure_class).toBe("tool_error");
    // The fault was on: 1,000 rollouts make about 3,000 calls, every 50th of the seeds and tools answered 500.
    const faulted = (await server.seen()).faulted - faultedBefore;
    expect(faulted).toBeGreaterThan(20);
    process.stderr.write(
      `1,000 remote rollouts: ${seconds.toFixed(1)} s, ${rollouts.length} scored, ${failures.length} failed, ${faulted} calls answered 500\n`,
    );
    await server.fault("none");
  }, 180_000);

  it("a server that does not answer within callMs fails the rollout as a timeout, across the Workers' RPC", async () => {
    await server.fault("slow", { ms: 6_000 });
    const answer = await postJson(`${local.url}/run?environment=stand_in`, row(1));
    await server.fault("none");
    expect(answer.status, JSON.stringify(answer.body)).toBe(504);
    expect(answer.body.error.code).toBe("tool_timeout");
    expect(answer.body.error.message).toContain("remote_timeout");
  }, 60_000);

  it("a lost session fails the rollout with NeMo Gym's failure class on the record", async () => {
    await server.fault("lost");
    const answer = await postJson(`${local.url}/run?environment=stand_in`, row(1));
    expect(answer.status).toBe(502);
    expect(answer.body.error.code).toBe("verify_failed");
    await server.fault("none");
  });

  it("NeMo Gym's own routes answer through the gateway: /reverify_mode and /aggregate_metrics from the server", async () => {
    const mode = await gatewayFetch(`${local.url}/v1/environments/stand_in/reverify_mode`);
    expect(mode.status).toBe(200);
    expect(await mode.json()).toBe("stateless");
    const metrics = await postJson(`${local.url}/v1/environments/stand_in/aggregate_metrics`, {
      verify_responses: [
        { reward: 1, _ng_task_index: 0 },
        { reward: 0, _ng_task_index: 1 },
      ],
    });
    expect(metrics.status, JSON.stringify(metrics.body)).toBe(200);
    expect(metrics.body.agent_metrics).toEqual({ "mean/reward": 0.5, stand_in: true });
  });

  it("sends the server its own bearer secret and never edgegym's token or session id", async () => {
    const { seen } = await server.seen();
    expect(seen.length).toBeGreaterThan(10);
    const text = JSON.stringify(seen);
    expect(local.token && text.includes(local.token)).toBe(false);
    expect(text.toLowerCase()).not.toContain("x-edgegym");
    expect(text).not.toContain("edgegym_session");
    expect(seen.every((headers) => headers.authorization === `Bearer ${SECRET}`)).toBe(true);
  });
});

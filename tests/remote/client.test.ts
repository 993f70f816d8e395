// A remote environment in process (the AWS path's EnvironmentRpc) against the Python stand-in NeMo Gym server: the
// rollout NeMo Gym's agent would run, each fault mode ending as a bounded retry where safe or NeMo Gym's failure class.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { RemoteEnvironmentConfig } from "../../contracts/remote.js";
import { failureClassOf } from "../../contracts/failures.js";
import { RemoteEntry } from "../../environments/sdk/remote/config.js";
import { remoteEnvironment } from "../../environments/sdk/remote/in-process.js";
import { runRollout } from "../../functions/agent/rollout.js";
import { RolloutFailure } from "../../functions/agent/failure.js";
import type { DatasetRow } from "../../protocol/index.js";
import { modelResponse, scriptedModel } from "../helpers/agent-ports.js";
import { closedPort, type StandIn, startStandIn } from "./stand-in.js";

let server: StandIn;
beforeAll(async () => {
  server = await startStandIn();
});
afterAll(() => server.stop());
beforeEach(() => server.fault("none"));

const SECRET = "remote-secret-value-0123456789";
const owner = { rollout: "r1", token: "edgegym-token-name" };
const limits = { maxSteps: 8, deadlineAt: Date.now() + 600_000, modelTimeoutMs: 5_000, toolTimeoutMs: 5_000 };

function config(overrides: Record<string, unknown> = {}): RemoteEnvironmentConfig {
  return RemoteEntry.parse({ name: "stand_in", baseUrls: [server.url], auth: { kind: "bearer", secret: "STAND_IN_TOKEN" }, ...overrides });
}

const row = (expected: number): DatasetRow =>
  ({
    responses_create_params: { input: "count twice", tools: [{ type: "function", name: "count", parameters: { type: "object", properties: {} } }] },
    expected_count: expected,
  }) as DatasetRow;

/** A model that calls `count` `times` times, one call a turn, then answers. */
function counter(times: number) {
  let turn = 0;
  return scriptedModel(() => (turn++ < times ? modelResponse({ calls: [{ name: "count", arguments: '{"by":1}' }] }) : modelResponse({ text: "done" })));
}

async function rollout(cfg: RemoteEnvironmentConfig, times: number, expected = times) {
  const environment = remoteEnvironment(cfg, { secrets: { STAND_IN_TOKEN: SECRET }, retryDelayMs: 1 });
  return runRollout(row(expected), { model: counter(times), resources: environment, owner }, limits);
}

async function failureOf(promise: Promise<unknown>): Promise<{ code: string; cls: string; message: string }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RolloutFailure);
  const failure = error as RolloutFailure;
  return { code: failure.failureClass, cls: failureClassOf(failure.failureClass), message: failure.message };
}

describe("a remote environment in process", () => {
  it("runs seed → tools → verify with the server's cookie, the model seeing the server's text", async () => {
    const record = await rollout(config(), 2);
    expect(record.reward).toBe(1);
    expect(record.count).toBe(2);
    const outputs = (record.response as { output: { type: string; output?: string }[] }).output.filter((item) => item.type === "function_call_output");
    // The stand-in answers as FastAPI does (compact JSON): the model sees exactly that text.
    expect(outputs.map((item) => item.output)).toEqual(['{"count":1}', '{"count":2}']);
  });

  it("sends the bearer secret, and nothing of edgegym's token or session id, to the server", async () => {
    await rollout(config(), 1);
    const { seen } = await server.seen();
    const last = seen.slice(-3);
    expect(last.every((headers) => headers.authorization === `Bearer ${SECRET}`)).toBe(true);
    const text = JSON.stringify(last);
    expect(text).not.toContain(owner.token);
    expect(text).not.toContain("x-edgegym");
    // The cookie the server set at seed comes back on the tool call and the verify.
    expect(last[1]?.cookie).toMatch(/^StandInResourcesServer___stand_in=/);
    expect(last[2]?.cookie).toMatch(/^StandInResourcesServer___stand_in=/);
  });

  it("a slow tool past callMs fails the rollout, with the tool call sent once", async () => {
    await server.fault("slow", { ms: 1500 });
    const before = (await server.seen()).tool_calls;
    const failure = await failureOf(rollout(config({ timeouts: { connectMs: 500, callMs: 300 } }), 1));
    // contracts/remote.ts: a call sent and not answered within callMs is a timeout (tool_timeout), not a transport error.
    expect(failure.code).toBe("tool_timeout");
    expect(failure.cls).toBe("tool_timeout");
    expect(failure.message).toContain("remote_timeout");
    expect((await server.seen()).tool_calls - before).toBe(1);
  });

  it("a 5xx on seed fails the rollout as seed_failed (tool_error); a 5xx from a tool is shown to the model", async () => {
    await server.fault("error");
    const seed = await failureOf(rollout(config(), 1));
    expect(seed.code).toBe("seed_failed");
    expect(seed.cls).toBe("tool_error");
    await server.fault("error", { every: 2 }); // the seed passes, the tool call fails
    const record = await rollout(config(), 1, 0);
    const output = (record.response as { output: { type: string; output?: string }[] }).output.find((item) => item.type === "function_call_output");
    expect(output?.output).toBe('"An unknown error occurred"');
    expect(record.reward).toBe(1);
  });

  it("a huge tool answer is a remote_bad_answer envelope the model sees, not a crash", async () => {
    await server.fault("huge", { ms: 64 });
    const record = await rollout(config({ maxResponseBytes: 16 * 1024 }), 1, 0);
    const output = (record.response as { output: { type: string; output?: string }[] }).output.find((item) => item.type === "function_call_output");
    expect(output?.output).toContain("remote_bad_answer");
    expect(output?.output).toContain("maxResponseBytes");
  });

  it("a wrong verify answer (no reward) is verify_failed (verify_error)", async () => {
    await server.fault("wrong");
    const failure = await failureOf(rollout(config(), 1));
    expect(failure.code).toBe("verify_failed");
    expect(failure.cls).toBe("verify_error");
  });

  it("a lost session (the server restarted) fails the rollout whole, never verified on a blank state", async () => {
    await server.fault("lost");
    const failure = await failureOf(rollout(config(), 1));
    expect(failure.code).toBe("verify_failed");
    expect(failure.message).toContain("500");
  });

  it("a refused member is skipped for a session: seed goes to the next member, and a member that keeps failing is passed over", async () => {
    const dead = `http://127.0.0.1:${await closedPort()}`;
    const environment = remoteEnvironment(config({ baseUrls: [dead, server.url] }), { secrets: { STAND_IN_TOKEN: SECRET }, retryDelayMs: 1 });
    for (let i = 0; i < 6; i++) {
      const record = await runRollout(row(1), { model: counter(1), resources: environment, owner }, limits);
      expect(record.reward).toBe(1);
    }
    expect(environment.client.pool.isDown(dead)).toBe(true);
    expect(environment.client.pool.order()[0]).toBe(server.url);
  });

  it("a pool of only refused members fails the seed (seed_failed) after a bounded number of tries", async () => {
    const dead = `http://127.0.0.1:${await closedPort()}`;
    const started = Date.now();
    const failure = await failureOf(rollout(config({ baseUrls: [dead], timeouts: { connectMs: 300, callMs: 1000 } }), 1));
    expect(failure.code).toBe("seed_failed");
    expect(failure.message).toContain("refused");
    expect(failure.message).not.toContain(SECRET);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("aggregates through the server's /aggregate_metrics and asks its reverify mode", async () => {
    const environment = remoteEnvironment(config(), { secrets: { STAND_IN_TOKEN: SECRET } });
    const lines = `${JSON.stringify({ reward: 1 })}\n${JSON.stringify({ reward: 0 })}\n`;
    const stream = new Response(lines).body!;
    const metrics = await environment.aggregateMetrics(stream);
    expect(metrics).toEqual({
      ok: true,
      value: { group_level_metrics: [], agent_metrics: { "mean/reward": 0.5, stand_in: true }, key_metrics: { "mean/reward": 0.5 } },
    });
    expect(await environment.client.reverifyMode(AbortSignal.timeout(2000))).toBe("stateless");
  });

  it("refuses to start without its secret, naming the secret and not a value", () => {
    expect(() => remoteEnvironment(config(), { secrets: {} })).toThrow("remote environment stand_in: the secret STAND_IN_TOKEN is not set");
  });
});

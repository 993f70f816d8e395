// The rollouts consumer with fake ports: a slow rollout does not hold its batch's fast retries (they run again in the
// batch while it is busy anyway), a retry is handed back to the queue once nothing else runs, and the attempt budget
// counts runs in the batch and on earlier messages alike.
import { describe, expect, it } from "vitest";
import { AgentVars } from "../../contracts/config.js";
import { decodeResult, type RolloutMessage } from "../../contracts/messages.js";
import type { EnvironmentRpc, ModelRpc } from "../../contracts/rpc.js";
import { handleWork } from "../../functions/agent/consumer.js";
import type { AgentPorts } from "../../functions/agent/ports.js";
import { CLOUDFLARE_LIMITS } from "../../queues/cloudflare.js";
import type { ReceivedMessage } from "../../queues/queue.js";

/** An environment that scores 1, and a model whose answer per rollout is scripted (a delay, or a failure). */
function world(script: Record<string, (call: number) => Promise<"ok" | "fail">>) {
  const calls: Record<string, number> = {};
  const environment: EnvironmentRpc = {
    describe: async () => ({ name: "env", description: "", stateful: false, tools: [], kind: "simple" }),
    seed: async (row) => ({ sessionId: String(row.responses_create_params.input), status: 200, body: {} }),
    tool: async () => ({ status: 200, body: {} }),
    verify: async () => ({ status: 200, body: { reward: 1 } }),
    reset: async () => ({ sessionId: "x", status: 500, body: {} }),
    step: async () => ({ status: 500, body: {} }),
    close: async () => ({ status: 200, body: {} }),
    aggregateMetrics: async () => ({ ok: false, error: { status: 501, code: "unused", message: "" } }),
  };
  const model: ModelRpc = {
    respond: async (_params, options) => {
      const who = options?.sessionId ?? "";
      calls[who] = (calls[who] ?? 0) + 1;
      const verdict = await script[who]!(calls[who]);
      if (verdict === "fail") return { ok: false, error: { status: 503, code: "upstream_failed", message: "busy" } };
      return {
        ok: true,
        value: {
          id: "r",
          object: "response",
          created_at: 0,
          model: "m",
          output: [{ type: "message", role: "assistant", content: [{ type: "output_text", text: "done" }] }],
        },
      } as never;
    },
  };
  return { environment, model, calls };
}

interface Outcome {
  acked: string[];
  retried: { id: string; delaySeconds?: number }[];
  results: string[];
  resent: RolloutMessage[];
}

function ports(w: ReturnType<typeof world>, outcome: Outcome, vars: Record<string, string> = {}): AgentPorts {
  return {
    config: AgentVars.parse({ ENVIRONMENTS: "env", RETRY_BASE_SECONDS: "0.05", MAX_ATTEMPTS: "3", ...vars }),
    model: w.model,
    environment: () => w.environment,
    environments: ["env"],
    rollouts: { limits: CLOUDFLARE_LIMITS, send: async (body) => void outcome.resent.push(body as RolloutMessage), sendBatch: async () => undefined },
    results: { limits: CLOUDFLARE_LIMITS, send: async (text) => void outcome.results.push(text), sendBatch: async () => undefined },
    store: { put: async () => true, get: async () => null, list: async () => ({ keys: [], prefixes: [] }), delete: async () => undefined },
    job: () => ({ wanted: async () => ({ numRepeats: 1 }), started: async () => ({ numRepeats: 1 }), abandon: async () => ({ written: 0 }) }),
  };
}

function message(outcome: Outcome, id: string, task: number, attempts = 1, tries?: number): ReceivedMessage {
  const body: RolloutMessage = {
    kind: "rollout",
    job_id: "job_a",
    task_index: task,
    rollout_index: 0,
    attempt: 1,
    row: { responses_create_params: { input: id }, agent_ref: { type: "responses_api_agents", name: "env_simple_agent" } },
    ...(tries !== undefined ? { tries } : {}),
  };
  return { id, body, attempts, ack: () => outcome.acked.push(id), retry: (o) => outcome.retried.push({ id, delaySeconds: o?.delaySeconds }) };
}

describe("the rollouts consumer's batch", () => {
  it("a fast-failing rollout runs again inside the batch while a slow one holds it, and both are acked", async () => {
    // The slow rollout holds the batch until the flaky one has had its third run.
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const w = world({
      slow: () => gate.then(() => "ok" as const),
      flaky: async (n) => {
        if (n < 3) return "fail";
        open();
        return "ok";
      },
    });
    const out: Outcome = { acked: [], retried: [], results: [], resent: [] };
    const slow = message(out, "slow", 0);
    const flaky = message(out, "flaky", 1);
    await handleWork({ queue: "edgegym-rollouts", messages: [slow, flaky] }, ports(w, out));
    expect(out.acked.sort()).toEqual(["flaky", "slow"]);
    expect(out.retried).toEqual([]);
    expect(w.calls.flaky).toBe(3);
    expect(out.results.map((text) => decodeResult(text).header.kind)).toEqual(["rollout", "rollout"]);
  });

  it("alone in its batch, a failing rollout goes back to the queue as before (nothing to wait behind)", async () => {
    const w = world({ flaky: async () => "fail" });
    const out: Outcome = { acked: [], retried: [], results: [], resent: [] };
    const flaky = message(out, "flaky", 1);
    await handleWork({ queue: "edgegym-rollouts", messages: [flaky] }, ports(w, out));
    expect(out.retried.map((r) => r.id)).toEqual(["flaky"]);
    expect(out.acked).toEqual([]);
    expect(w.calls.flaky).toBe(1);
  });

  it("runs in the batch count against the attempt budget: the third failure is a failure record, not another retry", async () => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const w = world({
      slow: () => gate.then(() => "ok" as const),
      broken: async (n) => {
        if (n === 3) setTimeout(open, 50);
        return "fail";
      },
    });
    const out: Outcome = { acked: [], retried: [], results: [], resent: [] };
    const slow = message(out, "slow", 0);
    const broken = message(out, "broken", 1);
    await handleWork({ queue: "edgegym-rollouts", messages: [slow, broken] }, ports(w, out));
    expect(w.calls.broken).toBe(3);
    const failure = out.results.map((text) => decodeResult(text)).find((r) => r.header.kind === "failure")!;
    expect(JSON.parse(failure.line!)).toMatchObject({ failure_class: "model_error", attempts: 3 });
    expect(out.acked.sort()).toEqual(["broken", "slow"]);
  });

  it("a retry handed back after runs in the batch goes as a new message that carries how many runs there were", async () => {
    // The slow rollout ends when the flaky one has run twice: then nothing else runs, and the flaky one goes back.
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const w = world({
      slow: () => gate.then(() => "ok" as const),
      flaky: async (n) => {
        if (n === 2) open();
        return "fail";
      },
    });
    const out: Outcome = { acked: [], retried: [], results: [], resent: [] };
    const slow = message(out, "slow", 0);
    const flaky = message(out, "flaky", 1);
    await handleWork({ queue: "edgegym-rollouts", messages: [slow, flaky] }, ports(w, out, { RETRY_BASE_SECONDS: "0.01", MAX_ATTEMPTS: "5" }));
    expect(w.calls.flaky).toBe(2);
    expect(out.resent).toEqual([expect.objectContaining({ task_index: 1, tries: 2 })]);
    expect(out.acked.sort()).toEqual(["flaky", "slow"]);
    expect(out.retried).toEqual([]);

    // A message that says it had runs before starts its budget from them.
    const w2 = world({ flaky: async () => "fail" });
    const out2: Outcome = { acked: [], retried: [], results: [], resent: [] };
    const later = message(out2, "flaky", 1, 1, 4);
    await handleWork({ queue: "edgegym-rollouts", messages: [later] }, ports(w2, out2, { MAX_ATTEMPTS: "5" }));
    expect(JSON.parse(decodeResult(out2.results[0]!).line!)).toMatchObject({ failure_class: "model_error", attempts: 5 });
  });
});

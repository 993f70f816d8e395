// The gymnasium loop: NeMo Gym's gymnasium_agent tests ported (fake environment and model), kind lookup and agent names.
import { beforeEach, describe, expect, it } from "vitest";
import { AgentVars } from "../../contracts/config.js";
import type { EnvironmentDescription, EnvironmentRpc, ModelRpc } from "../../contracts/rpc.js";
import { executeRow } from "../../functions/agent/execute.js";
import { runGymnasiumRollout } from "../../functions/agent/gymnasium.js";
import { clearEnvironmentKinds } from "../../functions/agent/kind.js";
import { environmentFromAgentName } from "../../functions/agent/resolve.js";
import type { RolloutLimits } from "../../functions/agent/rollout.js";
import type { AgentPorts } from "../../functions/agent/ports.js";
import { DatasetRow, type Response as ModelResponse } from "../../protocol/index.js";

/** The agent's ports around fake environments and a fake model; queues and storage are not reached by these tests. */
function ports(environments: Record<string, EnvironmentRpc>, model: ModelRpc): AgentPorts {
  const unused = (): never => {
    throw new Error("not used by these tests");
  };
  return {
    config: AgentVars.parse({ ENVIRONMENTS: Object.keys(environments).join(",") }),
    model,
    environment: (name) => environments[name],
    environments: Object.keys(environments),
    rollouts: { limits: { maxMessageBytes: 1, maxBatchBytes: 1, maxBatchMessages: 1 }, send: unused, sendBatch: unused },
    results: { limits: { maxMessageBytes: 1, maxBatchBytes: 1, maxBatchMessages: 1 }, send: unused, sendBatch: unused },
    store: { put: unused, get: unused, list: unused, delete: unused },
    job: unused,
  };
}

// Bodies are read field by field; typing each one would say nothing the assertions do not.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
interface Call {
  path: string;
  body: Json;
  session: string | null;
}
type Answer = { status?: number; body: unknown } | Error;

/** The RPC surfaces' stand-ins: each call answers from its queue of answers (by the route it stands for), and is logged. */
function fake(answers: Record<string, Answer[]>, log: Call[] = []) {
  const answer = (path: string, body: unknown, session: string | null): { status: number; body: unknown } => {
    log.push({ path, body: body === undefined ? undefined : structuredClone(body), session });
    const next = answers[path]?.shift();
    if (!next) throw new Error(`unexpected request: ${path}`);
    if (next instanceof Error) throw next;
    return { status: next.status ?? 200, body: next.body };
  };
  const environment: EnvironmentRpc = {
    describe: async () => answer("/tools", undefined, null).body as EnvironmentDescription,
    seed: async (row) => ({ sessionId: "episode-1", ...answer("/seed_session", row, null) }),
    reset: async (row) => ({ sessionId: "episode-1", ...answer("/reset", row, null) }),
    step: async (sessionId, body) => answer("/step", body, sessionId),
    close: async (sessionId) => answer("/close", {}, sessionId),
    tool: async (sessionId, name, args) => answer(`/${name}`, args, sessionId),
    verify: async (sessionId, body) => answer("/verify", body, sessionId),
    aggregateMetrics: async () => ({ ok: false, error: { status: 501, code: "unused", message: "not in these tests" } }),
  };
  const model: ModelRpc = {
    respond: async (params, options) => {
      const { status, body } = answer("/v1/responses", params, options?.sessionId ?? null);
      return status === 200 ? { ok: true, value: body as ModelResponse } : { ok: false, error: { status, code: "model_error", message: JSON.stringify(body) } };
    },
  };
  return { environment, model, log };
}

function modelResponse(text: string, input = 1, output = 1, cached = 0, reasoning = 0) {
  return {
    id: "r",
    created_at: 0,
    model: "m",
    object: "response",
    output: [{ id: "msg", content: [{ annotations: [], text, type: "output_text" }], role: "assistant", status: "completed", type: "message" }],
    parallel_tool_calls: true,
    tool_choice: "auto",
    tools: [],
    usage: {
      input_tokens: input,
      input_tokens_details: { cached_tokens: cached },
      output_tokens: output,
      output_tokens_details: { reasoning_tokens: reasoning },
      total_tokens: input + output,
    },
  };
}

const limits = (maxSteps = 10): RolloutLimits => ({ maxSteps, deadlineAt: Date.now() + 10_000, modelTimeoutMs: 5_000, toolTimeoutMs: 5_000 });
const row = (input = "play") => DatasetRow.parse({ responses_create_params: { input: [{ role: "user", content: input }] } });
const step = (observation: string | null, reward: number, terminated: boolean, info: Record<string, unknown> = {}) => ({
  body: { observation, reward, terminated, truncated: false, info },
});

function setup(environment: Record<string, Answer[]>, model: Answer[]) {
  const log: Call[] = [];
  const parts = { resources: fake(environment, log).environment, model: fake({ "/v1/responses": model }, log).model, owner: { rollout: "r-1", token: "test" } };
  return { log, parts, paths: () => log.map((c) => c.path) };
}

describe("NeMo Gym's gymnasium_agent tests, ported", () => {
  it("terminates on the first step: one reset, one model call, one step, no close", async () => {
    const { parts, paths } = setup({ "/reset": [{ body: { observation: "go", info: {} } }], "/step": [step(null, 1, true)] }, [
      { body: modelResponse("move A") },
    ]);
    const result = await runGymnasiumRollout(row(), parts, limits());
    expect(result).toMatchObject({ reward: 1, terminated: true, truncated: false });
    expect(paths()).toEqual(["/reset", "/v1/responses", "/step"]);
  });

  it("a successful rollout survives a failing close: info gets a cleanup_warning", async () => {
    const { parts } = setup(
      {
        "/reset": [{ body: { observation: "go", info: { supports_explicit_close: true } } }],
        "/step": [step(null, 1.25, true, { step_idx: 1 })],
        "/close": [{ status: 500, body: { error: "close unavailable" } }],
      },
      [{ body: modelResponse("move A") }],
    );
    const result: Json = await runGymnasiumRollout(row(), parts, limits());
    expect(result.reward).toBeCloseTo(1.25);
    expect(result.terminated).toBe(true);
    expect(result.info.step_idx).toBe(1);
    expect(result.info.cleanup_warning).toMatchObject({ operation: "close", error_type: "RolloutFailure" });
    expect(result.info.cleanup_warning.message).toContain("/close answered 500");
  });

  it("multi-step keeps the model's output items whole in the history, observations as user messages, a fresh step id each step", async () => {
    const { parts, log } = setup(
      {
        "/reset": [{ body: { observation: "start", info: { supports_step_idempotency: true } } }],
        "/step": [step("obs-1", 0.5, false), step(null, 0.5, true)],
      },
      [{ body: modelResponse("turn-1", 1, 10) }, { body: modelResponse("turn-2", 1, 20) }],
    );
    const result: Json = await runGymnasiumRollout(row(), parts, limits(3));
    expect(result.reward).toBe(1);
    expect(result.terminated).toBe(true);
    const ids = log.filter((c) => c.path === "/step").map((c) => c.body._ng_step_request_id);
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
    const turn2 = log.filter((c) => c.path === "/v1/responses")[1]!.body.input as Json[];
    expect(turn2).toContainEqual(expect.objectContaining({ role: "assistant", content: [expect.objectContaining({ type: "output_text", text: "turn-1" })] }));
    expect(turn2).toContainEqual({ type: "message", role: "user", content: "obs-1" });
    // The reset observation follows the row's input, and the record's request carries it, as NeMo Gym's does.
    expect(turn2.slice(0, 2)).toEqual([
      { type: "message", role: "user", content: "play" },
      { type: "message", role: "user", content: "start" },
    ]);
    expect(result.responses_create_params.input).toEqual(turn2.slice(0, 2));
    expect(result.response.output.map((i: Json) => i.role)).toEqual(["assistant", "user", "assistant"]);
  });

  it("max_steps sets truncated (and an explicit close still happens once)", async () => {
    const { parts, paths } = setup(
      {
        "/reset": [{ body: { observation: null, info: { supports_explicit_close: true } } }],
        "/step": [step("obs-1", 0, false), step("obs-2", 0, false)],
        "/close": [{ body: { ok: true, already_closed: false, summary: {} } }],
      },
      [{ body: modelResponse("a") }, { body: modelResponse("b") }],
    );
    const result = await runGymnasiumRollout(row("x"), parts, limits(2));
    expect(result).toMatchObject({ truncated: true, terminated: false });
    expect(paths().filter((p) => p === "/close")).toHaveLength(1);
    // The last observation was never seen by a model: it is still in the output, as NeMo Gym appends it.
    expect((result as Json).response.output.at(-1)).toEqual({ type: "message", role: "user", content: "obs-2" });
  });

  it("a model failure after reset still closes the environment, in the episode's session", async () => {
    const { parts, log } = setup(
      { "/reset": [{ body: { observation: "start", info: { supports_explicit_close: true } } }], "/close": [{ body: { ok: true } }] },
      [new Error("model server unavailable")],
    );
    await expect(runGymnasiumRollout(row("x"), parts, limits(2))).rejects.toThrow(/model server unavailable/);
    const closes = log.filter((c) => c.path === "/close");
    expect(closes).toHaveLength(1);
    expect(closes[0]!.session).toBe("episode-1");
  });

  it("a malformed reset answer still closes the environment", async () => {
    const { parts, paths } = setup(
      { "/reset": [{ body: { observation: { not: "text" }, info: { supports_explicit_close: true } } }], "/close": [{ body: { ok: true } }] },
      [],
    );
    await expect(runGymnasiumRollout(row("x"), parts, limits(2))).rejects.toMatchObject({ code: "reset_failed" });
    expect(paths()).toEqual(["/reset", "/close"]);
  });

  it("the reset's session goes with every model call, step and close (NeMo Gym threads cookies the same way)", async () => {
    const { parts, log } = setup(
      {
        "/reset": [{ body: { observation: "go", info: { supports_explicit_close: true } } }],
        "/step": [step(null, 0, true)],
        "/close": [{ body: { ok: true } }],
      },
      [{ body: modelResponse("a") }],
    );
    await runGymnasiumRollout(row("x"), parts, limits());
    expect(log.slice(1).map((c) => c.session)).toEqual(["episode-1", "episode-1", "episode-1"]);
  });

  it("usage accumulates across turns, the details too", async () => {
    const { parts } = setup({ "/reset": [{ body: { observation: null, info: {} } }], "/step": [step("o", 0, false), step(null, 0, true)] }, [
      { body: modelResponse("a", 5, 7, 2, 3) },
      { body: modelResponse("b", 11, 13, 5, 7) },
    ]);
    const result: Json = await runGymnasiumRollout(row("x"), parts, limits(3));
    expect(result.response.usage).toEqual({
      input_tokens: 16,
      input_tokens_details: { cached_tokens: 7 },
      output_tokens: 20,
      output_tokens_details: { reasoning_tokens: 10 },
      total_tokens: 36,
    });
  });
});

describe("the loop beyond NeMo Gym's tests", () => {
  it("tool outputs from info.tool_outputs follow the model's calls as function_call_output items", async () => {
    const call = { type: "function_call", call_id: "c1", name: "lookup", arguments: '{"key": "a"}' };
    const { parts, log } = setup(
      { "/reset": [{ body: {} }], "/step": [step(null, 0, false, { tool_outputs: [{ call_id: "c1", output: '{"value": 1}' }] }), step(null, 1, true)] },
      [{ body: { ...modelResponse(""), output: [call] } }, { body: modelResponse("done") }],
    );
    const result: Json = await runGymnasiumRollout(row(), parts, limits());
    expect(result.response.output.map((i: Json) => i.type)).toEqual(["function_call", "function_call_output", "message"]);
    expect(result.response.output[1]).toEqual({ type: "function_call_output", call_id: "c1", output: '{"value": 1}', id: null, status: null });
    // The step sees only this turn's response, with the row.
    expect(log.filter((c) => c.path === "/step")[0]!.body.response.output).toEqual([call]);
  });

  it("an environment's 4xx on /step is the row's fault (400), a 5xx may pass (502)", async () => {
    const fourxx = setup({ "/reset": [{ body: {} }], "/step": [{ status: 409, body: { error: { code: "no_game", message: "no game" } } }] }, [
      { body: modelResponse("a") },
    ]);
    await expect(runGymnasiumRollout(row(), fourxx.parts, limits())).rejects.toMatchObject({ code: "step_failed", status: 400 });
    const fivexx = setup({ "/reset": [{ status: 503, body: {} }] }, []);
    await expect(runGymnasiumRollout(row(), fivexx.parts, limits())).rejects.toMatchObject({ code: "reset_failed", status: 502 });
  });
});

describe("executeRow picks the loop from the environment's GET /tools", () => {
  beforeEach(() => clearEnvironmentKinds());

  function agentEnv(tools: Record<string, unknown>, steps: number, log: Call[]) {
    const always = <T>(value: T, n: number): T[] => Array.from({ length: n }, () => value);
    const environment = fake({ "/tools": always({ body: tools }, 5), "/reset": always({ body: {} }, 5), "/step": always(step("again", 0, false), steps) }, log);
    const model = fake({ "/v1/responses": always({ body: modelResponse("a") }, steps) }, log);
    return ports({ toy: environment.environment }, model.model);
  }

  it("NeMo Gym's default max_steps (10) when the environment declares none; /tools is asked once per isolate", async () => {
    const log: Call[] = [];
    const env = agentEnv({ kind: "gymnasium" }, 20, log);
    const first = await executeRow(env, DatasetRow.parse({ ...row(), _ng_task_index: 3, _ng_rollout_index: 1 }), { environment: "toy" });
    expect(first.record).toMatchObject({
      truncated: true,
      terminated: false,
      _ng_task_index: 3,
      _ng_rollout_index: 1,
      agent_ref: { name: "toy_gymnasium_agent" },
    });
    expect(log.filter((c) => c.path === "/step")).toHaveLength(10);
    await executeRow(env, row(), { environment: "toy", maxSteps: 2 });
    expect(log.filter((c) => c.path === "/tools")).toHaveLength(1);
    expect(log.filter((c) => c.path === "/step")).toHaveLength(12);
  });

  // A max_steps of 0 is refused where it comes in: the gateway's query check (tests/integration/gymnasium.test.ts).
  it("the environment's declared max_steps; ?max_steps= wins over it", async () => {
    const log: Call[] = [];
    const env = agentEnv({ kind: "gymnasium", max_steps: 3 }, 20, log);
    await executeRow(env, row(), { environment: "toy" });
    expect(log.filter((c) => c.path === "/step")).toHaveLength(3);
    await executeRow(env, row(), { environment: "toy", maxSteps: 1 });
    expect(log.filter((c) => c.path === "/step")).toHaveLength(4);
  });

  it("the record is NeMo Gym's gymnasium run response plus the bookkeeping fields, in NeMo Gym's order", async () => {
    const env = agentEnv({ kind: "gymnasium", max_steps: 1 }, 1, []);
    const { record } = await executeRow(env, DatasetRow.parse({ ...row(), _ng_task_index: 0, _ng_rollout_index: 0, expected: "x" }), { environment: "toy" });
    expect(Object.keys(record)).toEqual([
      "responses_create_params",
      "response",
      "reward",
      "terminated",
      "truncated",
      "info",
      "_ng_task_index",
      "_ng_rollout_index",
      "agent_ref",
      "_ng_rollout_id",
    ]);
  });
});

describe("NeMo Gym's agent names", () => {
  const known = ["blackjack", "example_multi_turn_gymnasium", "example_single_tool_call"];
  it.each([
    ["blackjack_gymnasium_agent", "blackjack"],
    ["example_multi_turn_gymnasium_agent", "example_multi_turn_gymnasium"],
    ["example_single_tool_call_simple_agent", "example_single_tool_call"],
    ["blackjack", "blackjack"],
    ["nothing_agent", undefined],
  ])("%s → %s", (name, expected) => {
    expect(environmentFromAgentName(name, known)).toBe(expected);
  });
});

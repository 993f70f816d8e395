// The gymnasium SDK: NeMo Gym's GymnasiumServer tests ported, plus the HTTP surface (reset/step/close, /tools, clear 4xx on /verify).
import { describe, expect, it } from "vitest";
import type { EnvironmentEnv } from "../../contracts/env.generated.js";
import type { SessionOperation } from "../../contracts/rpc.js";
import { environmentApp } from "../../environments/sdk/app.js";
import type { SessionState } from "../../environments/sdk/types.js";
import { performAny } from "../../environments/sdk/gymnasium-perform.js";
import { judgeThrough } from "../../environments/sdk/judge.js";
import { defineGymnasiumEnvironment, extractText, toolOutput, z, type Environment } from "../../environments/sdk/index.js";
import { pythonJsonDumps } from "../../environments/sdk/python/json-dumps.js";
import { mintSessionId } from "../../environments/sdk/session-id.js";

const SECRET = "a-test-secret-of-at-least-32-characters";
/** A session id as `environment` mints it, for an outside caller without a token name (no gateway in front here). */
const sessionIdOf = (environment: Environment) => mintSessionId(SECRET, environment.name, { rollout: "", token: "" });

/** A session namespace that runs operations as the session Durable Object does, its states in a Map. */
function fakeSessions(environment: Environment) {
  const states = new Map<string, unknown>();
  const stateOf = (id: string): SessionState<unknown> => ({
    get: async () => states.get(id),
    set: async (value) => void states.set(id, value),
    clear: async () => void states.delete(id),
  });
  const namespace = {
    idFromName: (name: string) => name,
    get: (id: string) => ({
      perform: (operation: SessionOperation, body: unknown, sessionId: string, trusted: boolean) => {
        const signal = AbortSignal.timeout(5_000);
        return performAny(environment, operation, body, { sessionId, state: stateOf(id), signal, judge: judgeThrough(undefined, signal) }, trusted);
      },
    }),
  };
  return {
    states,
    env: {
      SESSIONS: namespace as unknown as EnvironmentEnv["SESSIONS"],
      JUDGE: undefined as unknown as EnvironmentEnv["JUDGE"],
      SESSION_SECRET: SECRET,
    } satisfies EnvironmentEnv,
  };
}

async function client(environment: Environment) {
  const app = environmentApp(environment);
  const { states, env } = fakeSessions(environment);
  const SID = await sessionIdOf(environment);
  const call = async (method: string, path: string, body?: unknown, sessionId = SID) => {
    const response = await app.fetch(
      new Request(`http://env${path}`, {
        method,
        headers: { "content-type": "application/json", "x-session-id": sessionId },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
      env,
    );
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return { status: response.status, body: (await response.json()) as any, headers: response.headers };
  };
  return { states, SID, call, post: (path: string, body?: unknown, sessionId?: string) => call("POST", path, body, sessionId) };
}

const message = (...parts: string[]) =>
  parts.map((text, i) => ({
    id: `msg_${i}`,
    type: "message",
    role: "assistant",
    status: "completed",
    content: [{ annotations: [], text, type: "output_text" }],
  }));
const response = (...parts: string[]) => ({
  id: "r",
  created_at: 0,
  model: "m",
  object: "response",
  output: message(...parts),
  parallel_tool_calls: true,
  tool_choice: "auto",
  tools: [],
});
const row = { responses_create_params: { input: [] } };
const stepBody = { ...row, response: response("x") };

const state = z.object({ x: z.number() });
const terminating = defineGymnasiumEnvironment({ name: "terminating", state, step: () => ({ reward: 1, terminated: true, truncated: false }) });
const ongoing = defineGymnasiumEnvironment({
  name: "ongoing",
  state,
  step: () => ({ observation: "keep going", reward: 0, terminated: false, truncated: false }),
});
const truncating = defineGymnasiumEnvironment({ name: "truncating", state, step: () => ({ reward: 0, terminated: false, truncated: true }) });

describe("NeMo Gym's GymnasiumServer tests, ported", () => {
  it("routes registered: /reset, /step and /aggregate_metrics answer", async () => {
    const env = await client(terminating);
    expect((await env.post("/reset", row)).status).toBe(200);
    expect((await env.post("/step", stepBody)).status).toBe(200);
    expect((await env.post("/aggregate_metrics", { verify_responses: [] })).status).toBe(200);
  });

  it("rollout-prefixed reset and step", async () => {
    const env = await client(terminating);
    expect((await env.post("/ng-rollout/4-2/reset", row)).status).toBe(200);
    const step = await env.post("/ng-rollout/4-2/step", stepBody);
    expect(step.status).toBe(200);
    expect(step.body.terminated).toBe(true);
  });

  it("verify raises: /verify (and /seed_session) answer a 4xx that says to use reset/step", async () => {
    const env = await client(terminating);
    for (const route of ["/verify", "/seed_session"]) {
      const answer = await env.post(route, stepBody);
      expect(answer.status).toBe(404);
      expect(answer.body.error.code).toBe("use_reset_step");
      expect(answer.body.error.message).toContain("POST /reset and POST /step");
    }
  });

  it("reset default returns empty", async () => {
    const env = await client(terminating);
    env.states.set(env.SID, { x: 1 });
    expect((await env.post("/reset", row)).body).toEqual({ observation: null, info: {} });
  });

  it("step pops on terminated", async () => {
    const env = await client(terminating);
    env.states.set(env.SID, { x: 1 });
    const step = await env.post("/step", stepBody);
    expect(step.body).toEqual({ observation: null, reward: 1, terminated: true, truncated: false, info: {} });
    expect(env.states.has(env.SID)).toBe(false);
  });

  it("step pops on truncated", async () => {
    const env = await client(truncating);
    env.states.set(env.SID, { x: 1 });
    expect((await env.post("/step", stepBody)).body.truncated).toBe(true);
    expect(env.states.has(env.SID)).toBe(false);
  });

  it("step keeps state when ongoing", async () => {
    const env = await client(ongoing);
    env.states.set(env.SID, { x: 1 });
    const step = await env.post("/step", stepBody);
    expect(step.body).toMatchObject({ observation: "keep going", terminated: false, truncated: false });
    expect(env.states.get(env.SID)).toEqual({ x: 1 });
  });

  it("a close override is invoked at the episode's end, then the state is gone", async () => {
    const closed: string[] = [];
    const custom = defineGymnasiumEnvironment({
      name: "custom_close",
      state,
      step: () => ({ reward: 0, terminated: true, truncated: false }),
      close: (ctx) => void closed.push(ctx.sessionId),
    });
    const env = await client(custom);
    env.states.set(env.SID, { x: 1 });
    await env.post("/step", stepBody);
    expect(closed).toEqual([env.SID]);
    expect(env.states.has(env.SID)).toBe(false);
  });

  it("extract_text concatenates output_text parts; an empty output is ''", () => {
    const parse = (value: unknown) => z.object({}).loose().parse(value) as Parameters<typeof extractText>[0];
    expect(extractText(parse(response("hello ", "world")))).toBe("hello world");
    expect(extractText(parse({ ...response(), output: [] }))).toBe("");
  });
});

describe("the gymnasium HTTP surface", () => {
  const withTools = defineGymnasiumEnvironment({
    name: "with_tools",
    description: "A tool-using env.",
    state,
    tools: { lookup: { description: "Look a key up.", parameters: z.object({ key: z.string() }) } },
    step: () => ({ reward: 0, terminated: true, truncated: false }),
    maxSteps: 7,
  });

  it("GET /tools says kind gymnasium, its max_steps and the tools the model may call", async () => {
    const answer = await (await client(withTools)).call("GET", "/tools");
    expect(answer.body).toEqual({
      environment: "with_tools",
      description: "A tool-using env.",
      kind: "gymnasium",
      stateful: true,
      max_steps: 7,
      tools: [
        {
          type: "function",
          name: "lookup",
          description: "Look a key up.",
          parameters: { type: "object", properties: { key: { type: "string" } }, required: ["key"], additionalProperties: false },
          strict: true,
        },
      ],
    });
  });

  it("a step without a response, or with a task field of the wrong type, is a 400 naming the field", async () => {
    const typed = defineGymnasiumEnvironment({
      name: "typed",
      task: z.object({ target: z.number() }),
      state,
      step: () => ({ reward: 0, terminated: true, truncated: false }),
    });
    const env = await client(typed);
    const missing = await env.post("/step", { ...row, target: 1 });
    expect(missing.status).toBe(400);
    expect(missing.body.error.issues.map((i: { path: string[] }) => i.path.join("."))).toContain("response");
    const wrong = await env.post("/reset", { ...row, target: "1" });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.issues[0].path).toEqual(["target"]);
    expect((await env.post("/reset", { target: 1 })).body.error.issues[0].path).toEqual(["responses_create_params"]);
  });

  it("an exception in reset or step, or a step result of the wrong shape, is a 500 saying so", async () => {
    const broken = defineGymnasiumEnvironment({
      name: "broken",
      state,
      reset: () => {
        throw new Error("no table free");
      },
      step: () => ({ reward: Number.NaN, terminated: true, truncated: false }),
    });
    const env = await client(broken);
    const reset = await env.post("/reset", row);
    expect(reset.status).toBe(500);
    expect(reset.body.error).toMatchObject({ code: "reset_error", message: "broken: no table free" });
    const step = await env.post("/step", stepBody);
    expect(step.status).toBe(500);
    expect(step.body.error.code).toBe("step_error");
    expect(step.body.error.message).toContain("reward");
  });

  it("POST /close ends the episode once: already_closed the second time", async () => {
    const env = await client(ongoing);
    env.states.set(env.SID, { x: 1 });
    expect((await env.post("/close", {})).body).toEqual({ ok: true, already_closed: false, summary: {} });
    expect((await env.post("/close", {})).body).toEqual({ ok: true, already_closed: true, summary: {} });
  });

  it("a session id comes back on every answer; one is made when none is carried", async () => {
    const app = environmentApp(terminating);
    const { env } = fakeSessions(terminating);
    const answer = await app.fetch(new Request("http://env/reset", { method: "POST", body: JSON.stringify(row) }), env);
    // Minted and signed here: random, opening time, HMAC (base64url).
    expect(answer.headers.get("x-session-id")).toMatch(/^[\w-]{22}\.[0-9a-z]+\.[\w-]{43}$/);
    expect(answer.headers.get("set-cookie")).toMatch(/^edgegym_session=/);
  });

  it("a gymnasium environment without state runs in the Worker itself", async () => {
    const stateless = defineGymnasiumEnvironment({
      name: "stateless",
      step: (action) => ({ reward: extractText(action).length, terminated: true, truncated: false }),
    });
    const answer = await environmentApp(stateless).fetch(
      new Request("http://env/step", { method: "POST", body: JSON.stringify({ ...row, response: response("abc") }) }),
      { SESSION_SECRET: SECRET },
    );
    expect(await answer.json()).toMatchObject({ reward: 3, terminated: true });
  });

  it("rejects a bad name or max_steps at definition time", () => {
    const step = () => ({ reward: 0, terminated: true, truncated: false });
    expect(() => defineGymnasiumEnvironment({ name: "Bad-Name", step })).toThrow(/lower_snake_case/);
    expect(() => defineGymnasiumEnvironment({ name: "ok", step, maxSteps: 0 })).toThrow(/maxSteps/);
  });
});

describe("toolOutput writes the result as NeMo Gym's json.dumps does", () => {
  it("separators, ensure_ascii, floats", () => {
    expect(toolOutput({ call_id: "c1" }, { city: "Zürich", temps: [1, 2.5], ok: true, none: null })).toEqual({
      call_id: "c1",
      output: '{"city": "Z\\u00fcrich", "temps": [1, 2.5], "ok": true, "none": null}',
    });
    expect(pythonJsonDumps([1e-5, 1.5e16, 0.0001, 123.456, -2.5e-7, "\u{1F600}\n\u007f"])).toBe(
      '[1e-05, 1.5e+16, 0.0001, 123.456, -2.5e-07, "\\ud83d\\ude00\\n\\u007f"]',
    );
    expect(pythonJsonDumps(undefined)).toBe("null");
  });
});

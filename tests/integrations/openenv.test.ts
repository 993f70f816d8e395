// OpenEnv's protocol in front of edgegym's environments, in the real local emulation: NeMo Gym's recorded rollouts replayed
// as OpenEnv tool-calling episodes (WebSocket, as OpenEnv's EnvClient speaks, and stateless HTTP) reach NeMo Gym's rewards.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import { FIXTURES, readJsonl } from "../helpers/fixtures.js";
import { gatewayFetch, postJson, startTestLocal, tokenFor } from "../helpers/local.js";
import { answer, basicAuth, callTool, type Json, OpenEnvSocketClient, recordedActions } from "./openenv-client.js";

let local: Local;
const base = (environment: string) => `${local.url}/openenv/${environment}`;

beforeAll(async () => {
  local = await startTestLocal();
});
afterAll(async () => {
  await local?.stop();
});

const inputKey = (row: Json) => JSON.stringify(row.responses_create_params.input.map((item: Json) => [item.role, item.content]));

/** A recorded rollout with tool calls, and the dataset row it was made from (matched on its input). */
function recorded(environment: string): { rollout: Json; row: Json } {
  const rows = readJsonl(path.join(FIXTURES, environment, "example.jsonl"));
  const rollouts = readJsonl(path.join(FIXTURES, environment, "example_rollouts.jsonl")) as Json[];
  const rollout = rollouts.find((r) => r.response.output.some((item: Json) => item.type === "function_call"));
  const row = rows.find((r) => inputKey(r) === inputKey(rollout));
  if (!rollout || !row) throw new Error(`no recorded rollout with tool calls and its row for ${environment}`);
  return { rollout, row };
}

/** A recorded gymnasium rollout and its row (matched on the row's first input message). */
function recordedTurns(environment: string): { rollout: Json; row: Json } {
  const rows = readJsonl(path.join(FIXTURES, environment, "example.jsonl")) as Json[];
  const rollout = (readJsonl(path.join(FIXTURES, environment, "example_rollouts.jsonl")) as Json[]).find((r) => r.reward === 1);
  const row = rows.find((r) => r.responses_create_params.input[0].content === rollout?.responses_create_params.input[0].content);
  if (!rollout || !row) throw new Error(`no recorded rollout with reward 1 and its row for ${environment}`);
  return { rollout, row };
}

describe("OpenEnv's WebSocket client (env_client.py) on three environments, one stateful", () => {
  for (const environment of ["example_single_tool_call", "example_multi_step", "example_session_state_mgmt"]) {
    it(`${environment}: reset → the recorded tool calls → the final answer gets NeMo Gym's reward`, async () => {
      const { rollout, row } = recorded(environment);
      const { actions, outputs } = recordedActions(rollout);
      const client = await OpenEnvSocketClient.connect(base(environment), `Bearer ${tokenFor(local.url)}`);

      const reset = await client.reset({ row, episode_id: `ep-${environment}` });
      expect(reset.type).toBe("observation");
      expect(reset.data.done).toBe(false);
      expect(reset.data.reward).toBeNull();
      expect(reset.data.observation.prompt.map((m: Json) => m.content)).toEqual(row.responses_create_params.input.map((m: Json) => m.content));
      expect(reset.data.observation.tools.map((t: Json) => t.name)).toEqual(row.responses_create_params.tools.map((t: Json) => t.name));
      expect(reset.data.observation.tools[0].input_schema).toEqual(row.responses_create_params.tools[0].parameters);

      const listed = await client.step({ type: "list_tools" });
      expect(listed.data.observation.tools.map((t: Json) => t.name)).toEqual(row.responses_create_params.tools.map((t: Json) => t.name));

      let last: Json;
      for (const [i, action] of actions.entries()) {
        last = await client.step(action);
        expect(last.type).toBe("observation");
        if (action.type === "call_tool") {
          // The tool's answer is what NeMo Gym's environment answered in the recorded rollout (the counter included).
          expect(last.data.observation).toMatchObject({ tool_name: action.tool_name, error: null, result: { data: outputs[i], is_error: false } });
          expect(last.data.done).toBe(false);
        }
      }
      expect(last.data.done).toBe(true);
      expect(last.data.reward).toBe(rollout.reward);
      expect(last.data.observation.metadata.verify.reward).toBe(rollout.reward);

      const state = await client.state();
      expect(state).toEqual({ type: "state", data: { episode_id: `ep-${environment}`, step_count: actions.length, environment, done: true } });
      const again = await client.step(answer("once more"));
      expect(again.data).toMatchObject({ code: "EXECUTION_ERROR", error_code: "episode_done", status: 409 });
      client.close();
    });
  }

  it("a wrong trajectory gets the reward /v1/environments/<env>/verify gives the same trajectory (0)", async () => {
    const { row } = recorded("example_multi_step");
    const client = await OpenEnvSocketClient.connect(base("example_multi_step"), `Bearer ${tokenFor(local.url)}`);
    await client.reset({ row });
    await client.step(callTool("extract_synonym_values", { synonym_values: [1, 2, 3] }));
    const done = await client.step(answer("[1, 2, 3]"));
    client.close();
    const response = {
      id: "r",
      created_at: 0,
      model: "m",
      output: [
        { type: "function_call", name: "extract_synonym_values", arguments: JSON.stringify({ synonym_values: [1, 2, 3] }), call_id: "c" },
        { type: "function_call_output", call_id: "c", output: '{"success": true}' },
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "[1, 2, 3]", annotations: [] }] },
      ],
    };
    const verified = await postJson(`${local.url}/v1/environments/example_multi_step/verify`, { ...row, response });
    expect(verified.status).toBe(200);
    expect(done.data.reward).toBe(0);
    expect(done.data.reward).toBe(verified.body.reward);
    expect(done.data.observation.metadata.verify.parsed_synonym_values).toEqual(verified.body.parsed_synonym_values);
  });

  it("a gymnasium environment (example_multi_turn_gymnasium): each message is a turn, the follow-ups come back, NeMo Gym's reward", async () => {
    const { rollout, row } = recordedTurns("example_multi_turn_gymnasium");
    const said = rollout.response.output.filter((item: Json) => item.role === "assistant").map((item: Json) => item.content[0].text);
    const followUps = rollout.response.output.filter((item: Json) => item.role === "user").map((item: Json) => item.content);
    const client = await OpenEnvSocketClient.connect(base("example_multi_turn_gymnasium"), `Bearer ${tokenFor(local.url)}`);
    const reset = await client.reset({ row });
    expect(reset.data.observation.prompt.map((m: Json) => m.content)).toEqual(row.responses_create_params.input.map((m: Json) => m.content));
    const steps: Json[] = [];
    for (const text of said) steps.push((await client.step(answer(text))).data);
    client.close();
    expect(steps.map((s) => s.observation.text).filter((t) => t !== null)).toEqual(followUps);
    expect(steps.map((s) => s.done)).toEqual(said.map((_: string, i: number) => i === said.length - 1));
    expect(steps.reduce((sum, s) => sum + s.reward, 0)).toBe(rollout.reward);
  });

  it("errors as OpenEnv's WSErrorResponse: step before reset, a bad action (with its zod path), bad JSON, an unknown type", async () => {
    const client = await OpenEnvSocketClient.connect(base("example_session_state_mgmt"), `Bearer ${tokenFor(local.url)}`);
    expect((await client.step(callTool("get_counter_value", {}))).data).toMatchObject({ error_code: "no_episode", status: 409 });
    expect((await client.state()).data).toEqual({ episode_id: null, step_count: 0 });
    await client.reset();
    const bad = await client.step({ type: "call_tool", arguments: {} });
    expect(bad.type).toBe("error");
    expect(bad.data).toMatchObject({ code: "VALIDATION_ERROR", status: 422 });
    expect(bad.data.errors.map((issue: Json) => issue.path)).toEqual([["action", "tool_name"]]);
    expect((await client.send({ type: "jump" })).data).toMatchObject({ code: "UNKNOWN_TYPE" });
    const unknownTool = await client.step(callTool("no_such_tool", {}));
    expect(unknownTool.data.observation.error.error_type).toBe("tool_not_found");
    // A route of the environment that is not a tool (its verifier, its seeding) is not reached by a tool call.
    for (const name of ["verify", "seed_session", "../verify"]) {
      const refused = await client.step(callTool(name, {}));
      expect(refused.data.observation.error).toEqual({ error_type: "tool_not_found", message: `Unknown tool: ${name}` });
    }
    client.close();
  });

  it("a connection without a token, or with a wrong one, is refused with a 401", async () => {
    await expect(OpenEnvSocketClient.connect(base("example_single_tool_call"))).rejects.toThrow(/401/);
    await expect(OpenEnvSocketClient.connect(base("example_single_tool_call"), basicAuth("openenv", "wrong"))).rejects.toThrow(/401/);
  });

  it("the token as the base URL's user info (Basic auth, all OpenEnv's client can send) opens an episode", async () => {
    const client = await OpenEnvSocketClient.connect(base("example_single_tool_call"), basicAuth("openenv", tokenFor(local.url)));
    const reset = await client.reset();
    expect(reset.type).toBe("observation");
    expect(reset.data.observation.tools.map((t: Json) => t.name)).toEqual(["get_weather"]);
    client.close();
  });
});

describe("OpenEnv's HTTP routes (http_server.py), the episode carried by the client", () => {
  it("reset → step → state → final answer on the stateful environment: the session's counter persists, NeMo Gym's reward", async () => {
    const { rollout, row } = recorded("example_session_state_mgmt");
    const { actions, outputs } = recordedActions(rollout);
    const reset = await postJson(`${base("example_session_state_mgmt")}/reset`, { row });
    expect(reset.status).toBe(200);
    let episode: string = reset.body.observation.metadata.episode;
    let last: Json;
    for (const [i, action] of actions.entries()) {
      last = await postJson(`${base("example_session_state_mgmt")}/step`, { action, episode });
      expect(last.status).toBe(200);
      if (action.type === "call_tool") expect(last.body.observation.result.data).toEqual(outputs[i]);
      episode = last.body.observation.metadata.episode;
    }
    expect(last.body).toMatchObject({ reward: rollout.reward, done: true });
    const state = await gatewayFetch(`${base("example_session_state_mgmt")}/state?episode=${encodeURIComponent(episode)}`);
    expect(await state.json()).toMatchObject({ step_count: actions.length, done: true });
  });

  it("health, metadata and schema as OpenEnv answers them", async () => {
    expect(await (await gatewayFetch(`${base("example_multi_step")}/health`)).json()).toEqual({ status: "healthy" });
    const metadata = await (await gatewayFetch(`${base("example_multi_step")}/metadata`)).json();
    expect(metadata).toMatchObject({ name: "example_multi_step", readme_content: null });
    const schema = (await (await gatewayFetch(`${base("example_multi_step")}/schema`)).json()) as Json;
    expect(Object.keys(schema)).toEqual(["action", "observation", "state"]);
    expect(JSON.stringify(schema.action)).toContain("call_tool");
  });

  it("bad input: a bad action is a 422 naming action.tool_name; step without an episode a 409; an unknown environment a 404; no token a 401; a wrong method 405; /ws without an upgrade 400", async () => {
    const bad = await postJson(`${base("example_multi_step")}/step`, { action: { type: "call_tool" }, episode: "x" });
    expect(bad.status).toBe(422);
    expect(bad.body.error.issues.map((issue: Json) => issue.path)).toEqual([["action", "tool_name"]]);
    const early = await postJson(`${base("example_multi_step")}/step`, { action: answer("hi") });
    expect(early.status).toBe(409);
    expect(early.body.error.message).toMatch(/reset first/);
    const forged = await postJson(`${base("example_multi_step")}/step`, { action: answer("hi"), episode: "not-an-episode" });
    expect(forged.status).toBe(400);
    expect((await postJson(`${base("no_such_env")}/reset`, {})).status).toBe(404);
    const anonymous = await fetch(`${base("example_multi_step")}/reset`, { method: "POST" });
    expect(anonymous.status).toBe(401);
    const wrongMethod = await gatewayFetch(`${base("example_multi_step")}/reset`);
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("POST");
    const notUpgraded = await gatewayFetch(`${base("example_multi_step")}/ws`);
    expect(notUpgraded.status).toBe(400);
    expect(((await notUpgraded.json()) as Json).error.code).toBe("upgrade_required");
  });
});

// Gymnasium environments end to end in workerd: gateway → agent (reset/step loop, picked from GET /tools) → model-proxy → simulator, and through the queues.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import { PROJECT_ROOT } from "../../local/paths.js";
import { fixtureRows } from "../helpers/fixtures.js";
import { createJob, jobLines, waitForJob } from "../helpers/jobs.js";
import { gatewayFetch, postJson, startTestLocal } from "../helpers/local.js";

const ENVIRONMENTS = ["blackjack", "example_multi_turn_gymnasium", "example_single_tool_call"];
let local: Local;
beforeAll(async () => {
  local = await startTestLocal({
    environments: ENVIRONMENTS,
    vars: { agent: { RETRY_BASE_SECONDS: "0", MAX_ATTEMPTS: "2" }, modelProxy: { MODEL_MAX_RETRIES: "0" } },
  });
});
afterAll(async () => {
  await local?.stop();
});
beforeEach(() => local.simulator!.reset());

const run = (row: unknown, query = "") => postJson(`${local.url}/run${query}`, row);
const blackjack = fixtureRows("blackjack")[0]!;
const capital = fixtureRows("example_multi_turn_gymnasium")[0]!; // France: two follow-ups, expects "Eiffel"
const water = fixtureRows("example_multi_turn_gymnasium")[4]!; // one follow-up, expects "2"
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

describe("the agent tells the kinds apart", () => {
  it("GET /v1/environments: gymnasium environments say so, with their max_steps", async () => {
    const list = (await (await gatewayFetch(`${local.url}/v1/environments`)).json()) as { data: Json[] };
    const byName = Object.fromEntries(list.data.map((e) => [e.name, e]));
    expect(byName.blackjack).toMatchObject({ kind: "gymnasium", max_steps: 5, stateful: true });
    expect(byName.example_multi_turn_gymnasium).toMatchObject({ kind: "gymnasium", max_steps: 5 });
    expect(byName.example_single_tool_call.kind).toBe("simple");
  });

  it("a simple environment still runs NeMo Gym's simple loop in the same agent", async () => {
    const answer = await run(fixtureRows("example_single_tool_call")[0]!, "?environment=example_single_tool_call");
    expect(answer.status).toBe(200);
    expect(answer.body.reward).toBe(1);
    expect(answer.body.terminated).toBeUndefined();
  });

  it("a gymnasium environment's /seed_session and /verify say to use reset/step", async () => {
    const verify = await postJson(`${local.url}/v1/environments/blackjack/verify`, {
      ...blackjack,
      response: { id: "r", created_at: 0, model: "m", output: [] },
    });
    expect(verify.status).toBe(404);
    expect(verify.body.error).toMatchObject({ code: "use_reset_step" });
    expect(verify.body.error.message).toMatch(/blackjack is a gymnasium environment: it serves POST \/reset and POST \/step/);
  });
});

describe("a rejected request leaves the client's connection usable", () => {
  // Behind the gateway, an answer that leaves the body unread made workerd drop the keep-alive connection
  // under the client's next request (about 1 in 12 before the environment read such bodies).
  it.each(["verify", "seed_session", "no_such_route"])("POST /%s then /reset, 100 times over kept-alive connections", async (route) => {
    const body = { ...blackjack, padding: "x".repeat(2000), response: { id: "r", created_at: 0, model: "m", output: [] } };
    for (let i = 0; i < 100; i++) {
      expect((await postJson(`${local.url}/v1/environments/blackjack/${route}`, body)).status).toBe(404);
      expect((await postJson(`${local.url}/v1/environments/blackjack/reset`, blackjack)).status).toBe(200);
    }
  });
});

describe("POST /run with scripted model replies", () => {
  it("example_multi_turn_gymnasium: follow-ups as user turns, the summed reward, NeMo Gym's record", async () => {
    local.simulator!.script({ content: "Paris." }, { content: "About 2.1 million." }, { content: "The Eiffel Tower." });
    const answer = await run(capital);
    expect(answer.status).toBe(200);
    const record = answer.body;
    expect(record).toMatchObject({ reward: 1, terminated: true, truncated: false, info: {}, agent_ref: capital.agent_ref });
    expect(Object.keys(record)).toEqual(["responses_create_params", "response", "reward", "terminated", "truncated", "info", "agent_ref", "_ng_rollout_id"]);
    const output = record.response.output as Json[];
    expect(output.map((i) => [i.role, typeof i.content === "string" ? i.content : i.content[0].text])).toEqual([
      ["assistant", "Paris."],
      ["user", "What is the approximate population of that city?"],
      ["assistant", "About 2.1 million."],
      ["user", "Name one famous landmark there."],
      ["assistant", "The Eiffel Tower."],
    ]);
    // The third model call saw the whole conversation; usage is the sum over the three calls.
    expect(local.simulator!.requests).toHaveLength(3);
    expect((local.simulator!.requests[2]!.messages as Json[]).map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
    const generated = local.simulator!.generations.reduce((sum, g) => sum + g.generation_token_ids.length, 0);
    expect(record.response.usage.output_tokens).toBe(generated);
  });

  it("a wrong final answer scores 0, still terminated", async () => {
    local.simulator!.script({ content: "H2O." }, { content: "Three." });
    const answer = await run(water);
    expect(answer.body).toMatchObject({ reward: 0, terminated: true, truncated: false });
  });

  it("blackjack: the reset observation joins the input, hits until the bust, reward -1", async () => {
    local.simulator!.script({ content: "<action>hit</action>" }, { content: "Think briefly... <action>hit</action>" });
    const answer = await run({ ...blackjack, deck: ["8", "5", "A", "9", "3", "Q"] });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ reward: -1, terminated: true, truncated: false, info: { result: "bust", player: "[8, 5, 3, Q]", value: 26 } });
    const input = answer.body.responses_create_params.input as Json[];
    expect(input.at(-1)).toEqual({
      type: "message",
      role: "user",
      content: "Your hand: [8, 5] = 13\nDealer shows: A\nRespond with <action>hit</action> or <action>stand</action>.",
    });
    expect((answer.body.response.output as Json[]).map((i) => i.role)).toEqual(["assistant", "user", "assistant"]);
  });

  it("blackjack: a stand plays the dealer out", async () => {
    local.simulator!.script({ content: "<action>stand</action>" });
    const answer = await run({ ...blackjack, deck: ["10", "3", "A", "5", "9", "10"] });
    expect(answer.body).toMatchObject({ reward: 1, terminated: true, info: { result: "win", dealer: "[A, 5, 9, 10]", dealer_value: 25 } });
  });

  it("the environment's max_steps (blackjack: 5) truncates a game still in play", async () => {
    const hit = { content: "<action>hit</action>" };
    local.simulator!.script(hit, hit, hit, hit, hit, hit);
    const answer = await run({ ...blackjack, deck: ["2", "2", "3", "4", "2", "2", "2", "2", "2"] });
    expect(answer.body).toMatchObject({ reward: 0, terminated: false, truncated: true, info: {} });
    expect(local.simulator!.requests).toHaveLength(5);
    expect(answer.body.response.output.at(-1).content).toContain("Your hand: [2, 2, 2, 2, 2, 2, 2] = 14");
  });

  it("?max_steps= truncates earlier; a bad value is a 400", async () => {
    local.simulator!.script({ content: "Paris." });
    const answer = await run(capital, "?max_steps=1");
    expect(answer.body).toMatchObject({ reward: 0, terminated: false, truncated: true });
    expect(local.simulator!.requests).toHaveLength(1);
    expect((await run(capital, "?max_steps=0")).status).toBe(400);
  });

  it("a model that fails is a failed rollout, not a scored one", async () => {
    local.simulator!.script({ status: 500, error: "boom" });
    const answer = await run(water);
    expect(answer.status).toBeGreaterThanOrEqual(500);
    expect(answer.body.error.code).toBe("model_error");
  });
});

describe("the simulator's default policy", () => {
  it.each([
    ["blackjack", blackjack],
    ["example_multi_turn_gymnasium", capital],
  ])("%s: the example row runs to an end", async (_name, row) => {
    const answer = await run(row);
    expect(answer.status).toBe(200);
    expect(typeof answer.body.reward).toBe("number");
    expect(answer.body.terminated || answer.body.truncated).toBe(true);
  });
});

describe("through the queues", () => {
  const example = (name: string) => readFileSync(path.join(PROJECT_ROOT, "environments", name, "data", "example.jsonl"), "utf8");

  it.each(["blackjack", "example_multi_turn_gymnasium"])("%s: a job of the example rows × 2 completes, every rollout scored", async (name) => {
    const rows = example(name).trim().split("\n").length;
    // The rows' own agent_ref names the environment (a job's `environment` option relabels rows as `<env>_simple_agent`).
    const created = await createJob(local.url, example(name), { num_repeats: "2" });
    expect(created.status).toBe(201);
    const info = await waitForJob(local.url, created.body.id);
    expect(info.status).toBe("completed");
    const rollouts = await jobLines(local.url, info.id, "rollouts");
    expect(await jobLines(local.url, info.id, "failures")).toEqual([]);
    expect(rollouts).toHaveLength(rows * 2);
    for (const record of rollouts) {
      expect(typeof record.reward).toBe("number");
      expect(record.terminated || record.truncated).toBe(true);
      expect(record.agent_ref.name).toBe(`${name === "blackjack" ? "blackjack_gymnasium" : name}_agent`);
    }
    expect(rollouts.map((r) => [r._ng_task_index, r._ng_rollout_index])).toEqual(Array.from({ length: rows * 2 }, (_, i) => [Math.floor(i / 2), i % 2]));
    const metrics = info.metrics![name]!.agent_metrics;
    expect(metrics["mean/terminated"]).toBeTypeOf("number");
    expect(metrics["mean/reward"]).toBeTypeOf("number");
  });
});

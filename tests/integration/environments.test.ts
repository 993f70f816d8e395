// The environment Workers in workerd: NeMo Gym's resources-server protocol, session state in Durable Objects, clear errors.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import { discoverEnvironments } from "../../local/environments.js";
import { gatewayFetch, postJson, startTestLocal } from "../helpers/local.js";

let local: Local;
const counter = () => `${local.url}/v1/environments/example_session_state_mgmt`;

beforeAll(async () => {
  local = await startTestLocal();
});
afterAll(async () => {
  await local?.stop();
});

describe("GET /v1/environments", () => {
  it("lists every bundled environment with its tools as OpenAI function tools", async () => {
    const answer = (await (await gatewayFetch(`${local.url}/v1/environments`)).json()) as { data: { name: string; tools: unknown; stateful: boolean }[] };
    const names = answer.data.map((e) => e.name);
    expect(names).toEqual(discoverEnvironments());
    expect(names).toEqual(
      expect.arrayContaining(["example_multi_step", "example_session_state_mgmt", "example_single_tool_call", "example_tool_call_multireward"]),
    );
    const weather = answer.data.find((e) => e.name === "example_single_tool_call")!;
    expect(weather.tools).toEqual([
      {
        type: "function",
        name: "get_weather",
        description: "",
        parameters: { type: "object", properties: { city: { type: "string", description: "" } }, required: ["city"], additionalProperties: false },
        strict: true,
      },
    ]);
    expect(answer.data.find((e) => e.name === "example_session_state_mgmt")?.stateful).toBe(true);
  });
});

describe("a stateful environment (NeMo Gym's example_session_state_mgmt test, ported)", () => {
  it("keeps a counter across the tool calls of one session and isolates another session", async () => {
    // No session yet: the environment makes one and hands back its cookie.
    const first = await postJson(`${counter()}/get_counter_value`, {});
    expect(first.body).toEqual({ count: 0 });
    const cookie = first.headers.get("set-cookie")!.split(";")[0]!;
    expect(cookie).toMatch(/^edgegym_session=/);

    expect((await postJson(`${counter()}/increment_counter`, { count: 2 }, { cookie })).body).toEqual({ success: true });
    expect((await postJson(`${counter()}/get_counter_value`, {}, { cookie })).body).toEqual({ count: 2 });

    // A new session, carried by the x-session-id header this time.
    const other = await postJson(`${counter()}/increment_counter`, { count: 4 });
    const otherId = other.headers.get("x-session-id")!;
    expect((await postJson(`${counter()}/get_counter_value`, {}, { "x-session-id": otherId })).body).toEqual({ count: 4 });
    await postJson(`${counter()}/increment_counter`, { count: 3 }, { "x-session-id": otherId });
    expect((await postJson(`${counter()}/get_counter_value`, {}, { "x-session-id": otherId })).body).toEqual({ count: 7 });

    expect((await postJson(`${counter()}/get_counter_value`, {}, { cookie })).body).toEqual({ count: 2 });
  });

  it("a NeMo Gym agent's cookies: edgegym's own session cookie is forwarded and kept; a Starlette cookie is never read", async () => {
    // A Starlette session cookie with a made-up signature names "nemo-gym-session-1": it opens nothing and reaches nothing.
    const payload = Buffer.from(JSON.stringify({ session_id: "nemo-gym-session-1" })).toString("base64");
    const starlette = `StatefulCounterResourcesServer___example=${payload}.aBcDeF.c2lnbmF0dXJl`;
    const seeded = await postJson(`${counter()}/seed_session`, { initial_count: 10 }, { cookie: starlette });
    const ours = seeded.headers.get("set-cookie")!.split(";")[0]!;
    expect(ours).toMatch(/^edgegym_session=/);
    // The agent forwards every cookie it holds: edgegym's decides the session.
    await postJson(`${counter()}/increment_counter`, { count: 5 }, { cookie: `${starlette}; ${ours}` });
    expect((await postJson(`${counter()}/get_counter_value`, {}, { cookie: `${starlette}; ${ours}` })).body).toEqual({ count: 15 });
    const named = await postJson(`${counter()}/get_counter_value`, {}, { "x-session-id": "nemo-gym-session-1" });
    expect(named.status).toBe(404);
    expect(named.body.error.code).toBe("unknown_session");
  });

  it("seeds from the row and verifies against the session's state", async () => {
    const row = { responses_create_params: { input: "add 1 then add 2" }, initial_count: 3, expected_count: 6 };
    const seeded = await postJson(`${counter()}/seed_session`, row);
    expect(seeded.status).toBe(200);
    const headers = { "x-session-id": seeded.headers.get("x-session-id")! };
    await postJson(`${counter()}/increment_counter`, { count: 1 }, headers);
    await postJson(`${counter()}/increment_counter`, { count: 2 }, headers);
    const response = { id: "resp_1", object: "response", created_at: 0, model: "m", output: [] };
    const verified = await postJson(`${counter()}/verify`, { ...row, response }, headers);
    expect(verified.status).toBe(200);
    expect(verified.body.reward).toBe(1);
    expect(verified.body.expected_count).toBe(6);

    const wrong = await postJson(`${counter()}/verify`, { ...row, expected_count: 7, response }, headers);
    expect(wrong.body.reward).toBe(0);
    // A verify without a session runs in a new, empty one and scores 0, as in NeMo Gym; an id nobody issued is refused.
    const fresh = await postJson(`${counter()}/verify`, { ...row, response });
    expect(fresh.body.reward).toBe(0);
    expect((await postJson(`${counter()}/verify`, { ...row, response }, { "x-session-id": crypto.randomUUID() })).status).toBe(404);
  });
});

describe("bad input gets a clear error, never a crash", () => {
  it("invalid tool arguments: 422 naming the argument, a body the agent can hand to the model", async () => {
    const bad = await postJson(`${counter()}/increment_counter`, { count: "two" });
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toBe("invalid_tool_arguments");
    expect(bad.body.error.message).toContain("increment_counter");
    expect(bad.body.error.issues[0].path).toEqual(["count"]);
  });

  it("a missing argument names it", async () => {
    const bad = await postJson(`${local.url}/v1/environments/example_single_tool_call/get_weather`, {});
    expect(bad.status).toBe(422);
    expect(bad.body.error.issues[0].path).toEqual(["city"]);
  });

  it("an unknown tool is a 404 that lists the tools", async () => {
    const bad = await postJson(`${counter()}/decrement_counter`, {});
    expect(bad.status).toBe(404);
    expect(bad.body.error.message).toContain("increment_counter");
  });

  it("a body that is not JSON is a 400", async () => {
    const bad = await postJson(`${counter()}/increment_counter`, "{count: 1");
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("invalid_json");
  });

  it("a verify request without a response names the field", async () => {
    const bad = await postJson(`${local.url}/v1/environments/example_multi_step/verify`, {
      responses_create_params: { input: "hi" },
      expected_synonym_values: [1],
      minefield_label: "Hot",
      minefield_label_value: 299,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues.map((i: { path: string[] }) => i.path.join("."))).toContain("response");
  });

  it("a verify request with a task field of the wrong type names it", async () => {
    const response = { id: "r", object: "response", created_at: 0, model: "m", output: [] };
    const bad = await postJson(`${local.url}/v1/environments/example_multi_step/verify`, {
      responses_create_params: { input: "hi" },
      expected_synonym_values: "711",
      minefield_label: "Hot",
      minefield_label_value: 299,
      response,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues[0].path).toEqual(["expected_synonym_values"]);
  });

  it("an unknown environment is a 404 listing the known ones", async () => {
    const bad = await postJson(`${local.url}/v1/environments/nope/verify`, {});
    expect(bad.status).toBe(404);
    expect(bad.body.error.message).toContain("example_single_tool_call");
  });
});

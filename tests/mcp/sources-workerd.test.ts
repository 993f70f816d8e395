// MCP servers as an environment's tools, in workerd through the gateway: the test starts the servers (the official SDK
// on 127.0.0.1), the environment finds them through bindings, lists and calls their tools beside its own (plain routes
// and its own /mcp alike), keeps one MCP session per edgegym session for a per_session server, and ends it with the session.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestLocal } from "../helpers/local.js";
import { type FedServers, startFedServers, WEATHER_SECRET } from "./fed-servers.js";
import { API_TOKENS, fedEnvironment, mcpClient, post, seed, TOKEN_A } from "./helpers.js";

const FED = "mcp_fed";
let servers: FedServers;
let local: Awaited<ReturnType<typeof startTestLocal>>;
const clients: Client[] = [];

beforeAll(async () => {
  servers = await startFedServers();
  const vars = { WEATHER_MCP_URL: servers.weatherUrl, WEATHER_AUTH: WEATHER_SECRET, COUNTER_MCP_URL: servers.counterUrl };
  local = await startTestLocal({ environments: [], extraEnvironments: [fedEnvironment(vars), fedEnvironment(vars, true)], apiTokens: API_TOKENS });
}, 180_000);

afterAll(async () => {
  for (const client of clients) await client.close();
  await local?.stop();
  await servers?.close();
});

/** The sessions the counter opened for calls: its listing sessions are ended at once, so they are the ones not deleted. */
const openSessions = () => servers.counter.opened.filter((id) => !servers.counter.deleted.includes(id));

describe("an environment's tools from MCP servers, in workerd", () => {
  it("GET /tools lists the native tool, then each server's, with the server's schema", async () => {
    const response = await fetch(`${local.url}/v1/environments/${FED}/tools`, { headers: { authorization: `Bearer ${TOKEN_A}` } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { stateful: boolean; tools: { name: string; parameters: Record<string, unknown> }[] };
    expect(body.tools.map((tool) => tool.name)).toEqual(["echo", "get_weather", "increment"]);
    expect(body.tools[1]?.parameters).toMatchObject({ type: "object", properties: { city: { type: "string" } }, required: ["city"] });
    // A per_session server makes the environment stateful: its MCP session ids live in the session's Durable Object.
    expect(body.stateful).toBe(true);
  });

  it("calls a shared server's tool with the secret from the binding, in a session", async () => {
    const seeded = await seed(local.url, FED, {});
    expect(seeded.status).toBe(200);
    const answer = await post(local.url, FED, "get_weather", { city: "Paris" }, seeded.sessionId);
    expect(answer).toEqual({ status: 200, body: { city: "Paris", forecast: "rain" } });
  });

  it("keeps one MCP session per edgegym session for a per_session server: plain and MCP calls share it", async () => {
    const before = openSessions().length;
    const a = await seed(local.url, FED, {});
    const b = await seed(local.url, FED, {});
    expect((await post(local.url, FED, "increment", {}, a.sessionId)).body).toEqual({ count: 1 });
    expect((await post(local.url, FED, "increment", {}, a.sessionId)).body).toEqual({ count: 2 });
    expect((await post(local.url, FED, "increment", {}, b.sessionId)).body).toEqual({ count: 1 });
    // Over the environment's own /mcp with session a's token: the server's tools are listed and the call lands in a's MCP session.
    const client = await mcpClient(local.url, FED, a.body.mcp.headers);
    clients.push(client);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["echo", "get_weather", "increment"]);
    const third = await client.callTool({ name: "increment", arguments: {} });
    expect(third.isError).toBeFalsy();
    expect(third.structuredContent).toEqual({ count: 3 });
    const weather = await client.callTool({ name: "get_weather", arguments: { city: "Oslo" } });
    expect(weather.structuredContent).toEqual({ city: "Oslo", forecast: "sun" });
    // Two edgegym sessions, two MCP sessions: not one per call.
    expect(openSessions().length - before).toBe(2);
  });

  it("two calls at once in a new session open one MCP session between them", async () => {
    const before = openSessions().length;
    const seeded = await seed(local.url, FED, {});
    const answers = await Promise.all([1, 2, 3].map(() => post(local.url, FED, "increment", {}, seeded.sessionId)));
    expect(answers.map((answer) => (answer.body as { count: number }).count).sort()).toEqual([1, 2, 3]);
    expect(openSessions().length - before).toBe(1);
  });

  it("opens a new MCP session, once, when the server no longer knows the session's (a restart)", async () => {
    const seeded = await seed(local.url, FED, {});
    expect((await post(local.url, FED, "increment", {}, seeded.sessionId)).body).toEqual({ count: 1 });
    const before = servers.counter.opened.length;
    servers.counter.forget();
    expect((await post(local.url, FED, "increment", {}, seeded.sessionId)).body).toEqual({ count: 1 });
    expect((await post(local.url, FED, "increment", {}, seeded.sessionId)).body).toEqual({ count: 2 });
    expect(servers.counter.opened.length - before).toBe(1);
  });

  it("ends the session's MCP session (DELETE) when the session expires", async () => {
    const seeded = await seed(local.url, "mcp_fed_short", {});
    expect((await post(local.url, "mcp_fed_short", "increment", {}, seeded.sessionId)).body).toEqual({ count: 1 });
    const opened = servers.counter.opened.at(-1)!;
    expect(servers.counter.deleted).not.toContain(opened);
    // The session's alarm fires 1.5 × its 2 s TTL after its last use.
    const until = Date.now() + 20_000;
    while (!servers.counter.deleted.includes(opened) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 250));
    expect(servers.counter.deleted).toContain(opened);
    const late = await post(local.url, "mcp_fed_short", "increment", {}, seeded.sessionId);
    expect(late.status).toBe(410);
  }, 30_000);

  it("a tool no source lists is unknown_tool, naming every tool offered", async () => {
    const seeded = await seed(local.url, FED, {});
    const answer = await post(local.url, FED, "decrement", {}, seeded.sessionId);
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ error: { code: "unknown_tool", message: expect.stringContaining("echo, get_weather, increment") } });
  });
});

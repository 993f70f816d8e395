// MCP servers as an environment's tools: an MCP server this test starts (the official SDK's McpServer over its Node
// Streamable HTTP transport on 127.0.0.1, and one over stdio) feeding an environment's tools, run in process (environments/sdk/in-process.ts).
import type { Server } from "node:http";
import { fileURLToPath } from "node:url";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineEnvironment } from "../../environments/sdk/define.js";
import { inProcessEnvironment } from "../../environments/sdk/in-process.js";
import type { SimpleEnvironment } from "../../environments/sdk/types.js";
import type { McpToolSourceConfig } from "../../contracts/mcp.js";
import type { VerifyRequest } from "../../protocol/index.js";
import { type FedServers, startFedServers, statelessServer } from "./fed-servers.js";

const owner = { rollout: "r-1", token: "t-1" };
const row = { responses_create_params: { input: "What is the weather?" } };
const SECRET = "Bearer weather-secret-42";
const calls: Record<string, number> = {};

function weatherServer(): McpServer {
  const server = new McpServer({ name: "weather", version: "1.0.0" });
  server.registerTool("get_weather", { description: "Weather of a city", inputSchema: { city: z.string() } }, async ({ city }) => {
    calls.get_weather = (calls.get_weather ?? 0) + 1;
    const answer = { city, forecast: city === "Paris" ? "rain" : "sun" };
    return { content: [{ type: "text", text: JSON.stringify(answer) }], structuredContent: answer };
  });
  server.registerTool("broken", { description: "Always fails", inputSchema: {} }, async () => ({
    content: [{ type: "text", text: "station offline" }],
    isError: true,
  }));
  server.registerTool("slow", { description: "Answers after 2 s", inputSchema: {} }, async () => {
    calls.slow = (calls.slow ?? 0) + 1;
    await new Promise((resolve) => setTimeout(resolve, 2000));
    return { content: [{ type: "text", text: "late" }] };
  });
  return server;
}

let http: Server;
let url: string;
const authorizations: (string | undefined)[] = [];

beforeAll(async () => {
  ({ server: http, url } = await statelessServer(weatherServer, SECRET, (authorization) => authorizations.push(authorization)));
});

afterAll(() => new Promise<void>((resolve) => http.close(() => resolve())));

function environment(callTimeoutMs = 5000, tools?: string[]): SimpleEnvironment {
  return defineEnvironment({
    name: "mcp_fed",
    tools: { echo: { description: "Echo", parameters: z.object({ text: z.string() }), execute: ({ text }) => ({ text }) } },
    mcpServers: [
      {
        name: "weather_mcp",
        transport: { kind: "http", url, headerSecrets: { authorization: "WEATHER_AUTH" } },
        callTimeoutMs,
        sessions: "shared",
        ...(tools ? { tools } : {}),
      },
    ],
    verify: () => ({ reward: 1 }),
  });
}

describe("mcpServers: an MCP server's tools join the environment's", () => {
  it("describe lists the native tools, then the server's, with the server's input schema", async () => {
    const rpc = inProcessEnvironment(environment(), { secrets: { WEATHER_AUTH: SECRET } });
    const { tools } = await rpc.describe();
    expect(tools.map((tool) => tool.name)).toEqual(["echo", "get_weather", "broken", "slow"]);
    const weather = tools.find((tool) => tool.name === "get_weather");
    expect(weather?.description).toBe("Weather of a city");
    expect(weather?.parameters).toMatchObject({ type: "object", properties: { city: { type: "string" } }, required: ["city"] });
    expect(authorizations.at(-1)).toBe(SECRET);
  });

  it("a call reaches the server once, with the secret's header, and answers its structured content", async () => {
    const rpc = inProcessEnvironment(environment(), { secrets: { WEATHER_AUTH: SECRET } });
    const { sessionId } = await rpc.seed(row, owner);
    const before = calls.get_weather ?? 0;
    expect(await rpc.tool(sessionId, "get_weather", { city: "Paris" }, owner)).toEqual({ status: 200, body: { city: "Paris", forecast: "rain" } });
    expect(calls.get_weather).toBe(before + 1);
    expect(await rpc.tool(sessionId, "echo", { text: "hi" }, owner)).toEqual({ status: 200, body: { text: "hi" } });
  });

  it("the server's tool error comes back as the native tool_error envelope, with the server's text", async () => {
    const rpc = inProcessEnvironment(environment(), { secrets: { WEATHER_AUTH: SECRET } });
    const { sessionId } = await rpc.seed(row, owner);
    expect(await rpc.tool(sessionId, "broken", {}, owner)).toEqual({
      status: 500,
      body: { error: { code: "tool_error", message: "weather_mcp.broken: station offline" } },
    });
  });

  it("an unknown name is a 404 naming the native and the server's tools; `tools` narrows what is offered", async () => {
    const rpc = inProcessEnvironment(environment(5000, ["get_weather"]), { secrets: { WEATHER_AUTH: SECRET } });
    const { sessionId } = await rpc.seed(row, owner);
    const answer = await rpc.tool(sessionId, "slow", {}, owner);
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ error: { code: "unknown_tool", message: 'mcp_fed has no tool "slow" (tools: echo, get_weather)' } });
    expect((await rpc.describe()).tools.map((tool) => tool.name)).toEqual(["echo", "get_weather"]);
  });

  it("a call past callTimeoutMs fails the operation and is not sent again", async () => {
    const rpc = inProcessEnvironment(environment(300), { secrets: { WEATHER_AUTH: SECRET } });
    const { sessionId } = await rpc.seed(row, owner);
    const before = calls.slow ?? 0;
    const answer = await rpc.tool(sessionId, "slow", {}, owner);
    expect(answer.status).toBe(500);
    expect(answer.body).toMatchObject({ error: { code: "tool_error", message: expect.stringContaining(`mcp_fed: MCP server weather_mcp (${url}):`) } });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(calls.slow).toBe(before + 1);
  });

  it("a missing secret names itself; a wrong one is refused by the server", async () => {
    const missing = inProcessEnvironment(environment(), {});
    await expect(missing.describe()).rejects.toThrow("MCP source weather_mcp: secret WEATHER_AUTH (for header authorization) is not set");
    const wrong = inProcessEnvironment(environment(), { secrets: { WEATHER_AUTH: "Bearer nope" } });
    await expect(wrong.describe()).rejects.toThrow(
      `MCP server weather_mcp (${url}): Streamable HTTP error: Error POSTing to endpoint: {"error":"bad credentials"}`,
    );
  });
});

describe("mcpServers over stdio (local only): a process the environment starts", () => {
  const script = fileURLToPath(new URL("./stdio-weather-server.ts", import.meta.url));
  const stdioEnvironment = (command: string[]) =>
    defineEnvironment({
      name: "mcp_stdio_fed",
      tools: {},
      mcpServers: [
        { name: "weather_stdio", transport: { kind: "stdio", command, env: { WEATHER_STATION: "orly" } }, callTimeoutMs: 30_000, sessions: "shared" },
      ],
      verify: () => ({ reward: 1 }),
    });

  it("lists the process's tools and answers a call with its structured content and the configured environment", async () => {
    const rpc = inProcessEnvironment(stdioEnvironment([process.execPath, "--import", "tsx", script]), {});
    expect((await rpc.describe()).tools.map((tool) => [tool.name, tool.description])).toEqual([["get_forecast", "Forecast of a city, over stdio"]]);
    const { sessionId } = await rpc.seed(row, owner);
    expect(await rpc.tool(sessionId, "get_forecast", { city: "Paris" }, owner)).toEqual({
      status: 200,
      body: { city: "Paris", forecast: "rain", station: "orly" },
    });
  }, 60_000);

  it("a command that cannot start names the server and its command", async () => {
    const rpc = inProcessEnvironment(stdioEnvironment(["/nonexistent/weather-server"]), {});
    await expect(rpc.describe()).rejects.toThrow("MCP server weather_stdio (/nonexistent/weather-server): ");
  }, 60_000);
});

describe("a per_session MCP server in process: one MCP session per edgegym session, ended with it", () => {
  let fed: FedServers;
  beforeAll(async () => {
    fed = await startFedServers();
  });
  afterAll(() => fed.close());

  const counted = (sessions: "per_session" | "shared" = "per_session", transport?: McpToolSourceConfig["transport"]) =>
    defineEnvironment({
      name: "mcp_counted",
      tools: {},
      mcpServers: [{ name: "counter_mcp", transport: transport ?? { kind: "http", url: "", urlSecret: "COUNTER_URL" }, callTimeoutMs: 5000, sessions }],
      verify: () => ({ reward: 1 }),
    });
  const verifyBody = { ...row, response: { id: "resp-1", output: [] } } as unknown as VerifyRequest;

  it("counts on in one MCP session per edgegym session, and DELETEs it when verify ends the session", async () => {
    const rpc = inProcessEnvironment(counted(), { secrets: { COUNTER_URL: fed.counterUrl } });
    const a = await rpc.seed(row, owner);
    const b = await rpc.seed(row, owner);
    expect((await rpc.tool(a.sessionId, "increment", {}, owner)).body).toEqual({ count: 1 });
    expect((await rpc.tool(a.sessionId, "increment", {}, owner)).body).toEqual({ count: 2 });
    expect((await rpc.tool(b.sessionId, "increment", {}, owner)).body).toEqual({ count: 1 });
    const mine = fed.counter.opened.filter((id) => !fed.counter.deleted.includes(id));
    expect(mine).toHaveLength(2);
    expect((await rpc.verify(a.sessionId, verifyBody, owner)).status).toBe(200);
    const until = Date.now() + 5000;
    while (!fed.counter.deleted.includes(mine[0]!) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fed.counter.deleted).toContain(mine[0]);
    expect(fed.counter.deleted).not.toContain(mine[1]);
  });

  it("a URL binding that is not set, and per_session over stdio, are errors naming what to fix", async () => {
    const rpc = inProcessEnvironment(counted(), {});
    await expect(rpc.describe()).rejects.toThrow("MCP source counter_mcp: no URL (set the COUNTER_URL binding, or transport.url)");
    expect(() => counted("per_session", { kind: "stdio", command: ["node", "server.js"] })).toThrow(
      'mcp_counted: MCP server counter_mcp is per_session, which needs transport kind "http" (a stdio server lives one connection)',
    );
  });
});

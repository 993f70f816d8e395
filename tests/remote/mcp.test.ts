// A remote environment (a NeMo Gym server, here the Python stand-in) taking tools from MCP servers its configuration
// names: in workerd through the gateway and /run, and in process (the AWS path). The MCP tools' calls go to the MCP
// servers, in one MCP session per edgegym session for a per_session server; the server's own tools and /verify to it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseRemoteFile } from "../../environments/sdk/remote/config.js";
import { remoteEnvironment } from "../../environments/sdk/remote/in-process.js";
import type { Local } from "../../local/emulation.js";
import type { FunctionTool, VerifyRequest } from "../../protocol/index.js";
import { gatewayFetch, postJson, startTestLocal } from "../helpers/local.js";
import { type FedServers, startFedServers, WEATHER_SECRET } from "../mcp/fed-servers.js";
import { type StandIn, startStandIn } from "./stand-in.js";

const SECRET = "stand-in-bearer-0123456789abcdef";
const owner = { rollout: "r-1", token: "t-1" };
let server: StandIn;
let fed: FedServers;
let local: Local;

const tool = (name: string, properties: Record<string, unknown> = {}): FunctionTool => ({
  type: "function",
  name,
  description: name,
  parameters: { type: "object", properties, additionalProperties: false },
});
const row = (tools: FunctionTool[], expected = 0) => ({
  responses_create_params: { input: "Call the tool once, then say done.", tools },
  expected_count: expected,
});

/** The configuration file's text: the stand-in, with a per_session counter found through a binding and a shared weather server. */
const configText = () =>
  JSON.stringify({
    remotes: [
      {
        name: "stand_in",
        baseUrls: [server.url],
        auth: { kind: "bearer", secret: "STAND_IN_TOKEN" },
        timeouts: { connectMs: 500, callMs: 5000 },
        mcpServers: [
          { name: "counter_mcp", transport: { kind: "http", urlSecret: "COUNTER_MCP_URL" }, sessions: "per_session" },
          { name: "weather_mcp", transport: { kind: "http", url: fed.weatherUrl, headerSecrets: { authorization: "WEATHER_AUTH" } } },
        ],
      },
    ],
  });

const secrets = () => ({ STAND_IN_TOKEN: SECRET, COUNTER_MCP_URL: fed.counterUrl, WEATHER_AUTH: WEATHER_SECRET });

beforeAll(async () => {
  [server, fed] = await Promise.all([startStandIn(), startFedServers()]);
  Object.assign(process.env, secrets());
  local = await startTestLocal({ environments: [], remotes: parseRemoteFile(configText(), "edgegym.remote.json") });
}, 120_000);

afterAll(async () => {
  await local?.stop();
  await Promise.all([server?.stop(), fed?.close()]);
  for (const name of Object.keys(secrets())) delete process.env[name];
});

async function call(route: string, body: unknown, sessionId?: string) {
  const response = await gatewayFetch(`${local.url}/v1/environments/stand_in/${route}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(sessionId ? { "x-session-id": sessionId } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, sessionId: response.headers.get("x-session-id") ?? "", body: (await response.json()) as Record<string, unknown> };
}

describe("a remote environment with MCP servers, in workerd", () => {
  it("GET /tools lists the MCP servers' tools (the server's own come from the rows)", async () => {
    const response = await gatewayFetch(`${local.url}/v1/environments/stand_in/tools`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { tools: { name: string }[] };
    expect(body.tools.map((t) => t.name)).toEqual(["increment", "get_weather"]);
  });

  it("MCP tools go to their servers in the session's MCP session; the server's own tool and /verify go to it", async () => {
    const before = await server.seen();
    const seeded = await call("seed_session", row([]));
    expect(seeded.status).toBe(200);
    expect((await call("increment", {}, seeded.sessionId)).body).toEqual({ count: 1 });
    expect((await call("increment", {}, seeded.sessionId)).body).toEqual({ count: 2 });
    expect((await call("get_weather", { city: "Paris" }, seeded.sessionId)).body).toEqual({ city: "Paris", forecast: "rain" });
    expect((await call("count", {}, seeded.sessionId)).body).toEqual({ count: 1 });
    // Only `count` reached the NeMo Gym server.
    expect((await server.seen()).tool_calls - before.tool_calls).toBe(1);
    const other = await call("seed_session", row([]));
    expect((await call("increment", {}, other.sessionId)).body).toEqual({ count: 1 });
  });

  it("/run: the model's call of an MCP server's tool is answered by that server, and the server verifies", async () => {
    const before = await server.seen();
    const answer = await postJson(`${local.url}/run?environment=stand_in`, row([tool("increment")], 0));
    expect(answer.status).toBe(200);
    const calls = answer.body.response.output.filter((item: { type: string }) => item.type === "function_call");
    expect(calls.map((item: { name: string }) => item.name)).toEqual(["increment"]);
    const output = answer.body.response.output.find((item: { type: string }) => item.type === "function_call_output");
    expect(output.output).toBe('{"count":1}');
    // The stand-in's own counter was never touched, so its verify scores expected_count 0 as met.
    expect(answer.body.reward).toBe(1);
    expect((await server.seen()).tool_calls - before.tool_calls).toBe(0);
  });
});

describe("a remote environment with MCP servers, in process (the AWS path)", () => {
  it("counts in one MCP session per edgegym session, and ends it when verify ends the session", async () => {
    const [deployment] = parseRemoteFile(configText(), "edgegym.remote.json");
    const rpc = remoteEnvironment(deployment!.config, { secrets: secrets() });
    expect((await rpc.describe()).tools.map((t) => t.name)).toEqual(["increment", "get_weather"]);
    const a = await rpc.seed(row([]), owner);
    expect((await rpc.tool(a.sessionId, "increment", {}, owner)).body).toEqual({ count: 1 });
    expect((await rpc.tool(a.sessionId, "increment", {}, owner)).body).toEqual({ count: 2 });
    const opened = fed.counter.opened.at(-1)!;
    const verified = await rpc.verify(a.sessionId, { ...row([]), response: { id: "r", output: [] } } as unknown as VerifyRequest, owner);
    expect(verified.status).toBe(200);
    const until = Date.now() + 5000;
    while (!fed.counter.deleted.includes(opened) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fed.counter.deleted).toContain(opened);
  });

  it("an MCP server that is down is the tool's error naming it, not the rollout's failure", async () => {
    const config = JSON.parse(configText()) as { remotes: { mcpServers: { transport: { url?: string } }[] }[] };
    config.remotes[0]!.mcpServers[1]!.transport.url = "http://127.0.0.1:9/mcp";
    const [deployment] = parseRemoteFile(JSON.stringify(config), "edgegym.remote.json");
    const rpc = remoteEnvironment(deployment!.config, { secrets: secrets() });
    const seeded = await rpc.seed(row([]), owner);
    const answer = await rpc.tool(seeded.sessionId, "get_weather", { city: "Oslo" }, owner);
    expect(answer.status).toBe(500);
    expect(answer.body).toMatchObject({ error: { code: "tool_error", message: expect.stringContaining("MCP server weather_mcp (http://127.0.0.1:9/mcp)") } });
  });
});

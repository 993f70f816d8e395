// POST /mcp through the gateway with the official SDK's client: initialize, list, call, tool errors, every token abuse
// refused with a clear error, MCP and plain calls in one stateful session scored by /verify, names normalized for verify.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestLocal } from "../helpers/local.js";
import { mintMcpToken } from "../../environments/sdk/mcp/token.js";
import { API_TOKENS, mcpClient, post, probeEnvironment, seed, shortProbeEnvironment, TOKEN_B } from "./helpers.js";

const STATEFUL = "example_session_state_mgmt";
const PROBE = "mcp_probe";
const HEADER = "X-NeMo-Gym-Session-Token";
let local: Awaited<ReturnType<typeof startTestLocal>>;
const clients: Client[] = [];

beforeAll(async () => {
  local = await startTestLocal({ environments: [STATEFUL], extraEnvironments: [probeEnvironment, shortProbeEnvironment], apiTokens: API_TOKENS });
}, 180_000);

afterAll(async () => {
  for (const client of clients) await client.close();
  await local?.stop();
});

async function connect(environment: string, headers: Record<string, string>, apiToken?: string): Promise<Client> {
  const client = await mcpClient(local.url, environment, headers, apiToken);
  clients.push(client);
  return client;
}

const textOf = (result: Record<string, unknown>) => (result.content as { type: string; text: string }[]).map((part) => part.text).join("");

describe("/seed_session's mcp metadata", () => {
  it("carries NeMo Gym's key and fields, the token in X-NeMo-Gym-Session-Token", async () => {
    const seeded = await seed(local.url, PROBE, {});
    expect(seeded.status).toBe(200);
    expect(seeded.body.mcp).toEqual({
      server_name: PROBE,
      url_path: "/mcp",
      transport: "http",
      headers: { [HEADER]: expect.stringMatching(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/) },
    });
  });
});

describe("the official client against /mcp", () => {
  it("initializes, lists the tools with their schemas, and calls them", async () => {
    const seeded = await seed(local.url, PROBE, {});
    const client = await connect(PROBE, seeded.body.mcp.headers);
    expect(client.getServerVersion()?.name).toBe(PROBE);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["echo", "shout", "fail"]);
    expect(tools[0]?.inputSchema).toMatchObject({ type: "object", properties: { text: { type: "string" } }, required: ["text"] });
    const echoed = await client.callTool({ name: "echo", arguments: { text: "hi" } });
    expect(echoed.isError).toBeFalsy();
    expect(textOf(echoed)).toBe('{"echoed":"hi"}');
    expect(echoed.structuredContent).toEqual({ echoed: "hi" });
    const shouted = await client.callTool({ name: "shout", arguments: { text: "hi" } });
    expect(textOf(shouted)).toBe("HI");
    expect(shouted.structuredContent).toBeUndefined();
  });

  it("answers a tool's failure, bad arguments and an unknown tool as error results the model can read", async () => {
    const seeded = await seed(local.url, PROBE, {});
    const client = await connect(PROBE, seeded.body.mcp.headers);
    const failed = await client.callTool({ name: "fail", arguments: {} });
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toMatch(/^HTTP 500 from POST \/fail: tool_error: .*the probe failed on purpose/);
    const invalid = await client.callTool({ name: "echo", arguments: { text: 3 } });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toMatch(/^HTTP 422 from POST \/echo: invalid_tool_arguments: invalid arguments for echo: text/);
    const unknown = await client.callTool({ name: "nope", arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toBe('mcp_unknown_tool: mcp_probe has no tool "nope" (tools: echo, shout, fail)');
  });
});

describe("token abuse", () => {
  it("refuses a request with no token (401)", async () => {
    await expect(connect(PROBE, {})).rejects.toMatchObject({
      code: 401,
      message: expect.stringMatching(/mcp_token_missing: missing X-NeMo-Gym-Session-Token/),
    });
  });

  it("refuses a forged token (403)", async () => {
    const seeded = await seed(local.url, PROBE, {});
    const real = seeded.body.mcp.headers[HEADER] ?? "";
    const [payload = ""] = real.split(".");
    const forged = await mintMcpToken("not-the-deployment-secret-0123456789abcdef", JSON.parse(Buffer.from(payload, "base64url").toString()));
    await expect(connect(PROBE, { [HEADER]: forged })).rejects.toMatchObject({
      code: 403,
      message: expect.stringMatching(/mcp_token_invalid: invalid X-NeMo-Gym-Session-Token/),
    });
    // Its claims changed under the real signature (a wider tool list): refused too.
    const widened = `${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, "base64url").toString()), tools: ["fail"] })).toString("base64url")}.${real.split(".")[1]}`;
    await expect(connect(PROBE, { [HEADER]: widened })).rejects.toThrow(/mcp_token_invalid/);
  });

  it("refuses a token that expired with its session", async () => {
    const seeded = await seed(local.url, "mcp_probe_short", {});
    const client = await connect("mcp_probe_short", seeded.body.mcp.headers);
    expect((await client.callTool({ name: "echo", arguments: { text: "in time" } })).isError).toBeFalsy();
    await new Promise((resolve) => setTimeout(resolve, 2_200));
    await expect(connect("mcp_probe_short", seeded.body.mcp.headers)).rejects.toMatchObject({
      code: 403,
      message: expect.stringMatching(/mcp_token_expired: the MCP session token expired with its session/),
    });
  });

  it("refuses a token minted for another environment", async () => {
    const seeded = await seed(local.url, STATEFUL, { initial_count: 0 });
    await expect(connect(PROBE, seeded.body.mcp.headers)).rejects.toThrow(
      /mcp_token_other_environment: this MCP session token was minted for environment .+example_session_state_mgmt.+, not .+mcp_probe/,
    );
  });

  it("refuses a token presented with another session's id, and a session of another caller", async () => {
    const first = await seed(local.url, PROBE, {});
    const second = await seed(local.url, PROBE, {});
    await expect(connect(PROBE, { ...first.body.mcp.headers, "x-session-id": second.sessionId })).rejects.toThrow(/mcp_token_other_session/);
    // Another API token's caller holding this token reaches no session: the call is an error result, nothing runs.
    const client = await connect(PROBE, first.body.mcp.headers, TOKEN_B);
    const result = await client.callTool({ name: "echo", arguments: { text: "x" } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^HTTP 404 from POST \/echo: unknown_session: no such session for this caller/);
  });

  it("narrows a session to its row's tools: others are neither listed nor callable", async () => {
    const seeded = await seed(local.url, PROBE, { allowed: ["echo"] });
    const client = await connect(PROBE, seeded.body.mcp.headers);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["echo"]);
    const refused = await client.callTool({ name: "shout", arguments: { text: "x" } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toBe('mcp_tool_not_allowed: tool "shout" is not allowed for this session');
  });
});

describe("MCP and plain calls in one session", () => {
  it("land in the same session's Durable Object, and /verify scores them all", async () => {
    const seeded = await seed(local.url, STATEFUL, { initial_count: 1 });
    const client = await connect(STATEFUL, seeded.body.mcp.headers);
    expect((await client.callTool({ name: "increment_counter", arguments: { count: 2 } })).structuredContent).toEqual({ success: true });
    expect((await post(local.url, STATEFUL, "increment_counter", { count: 3 }, seeded.sessionId)).status).toBe(200);
    expect((await client.callTool({ name: "get_counter_value", arguments: {} })).structuredContent).toEqual({ count: 6 });
    const verified = await post(local.url, STATEFUL, "verify", verifyRequest([]), seeded.sessionId);
    expect(verified.status).toBe(200);
    expect(verified.body.reward).toBe(1);
    const wrong = await post(local.url, STATEFUL, "verify", { ...verifyRequest([]), expected_count: 5 }, seeded.sessionId);
    expect(wrong.body.reward).toBe(0);
  });

  it("/verify's verifier sees bare names; the answer keeps the names the model emitted", async () => {
    const seeded = await seed(local.url, PROBE, {});
    const calls = ["mcp__mcp_probe__echo", "echo", "mcp__other_server__echo"];
    const verified = await post(local.url, PROBE, "verify", verifyRequest(calls), seeded.sessionId);
    expect(verified.status).toBe(200);
    expect(verified.body.seen_names).toEqual(["echo", "echo", "mcp__other_server__echo"]);
    const output = (verified.body.response as { output: { name: string }[] }).output;
    expect(output.map((item) => item.name)).toEqual(calls);
  });
});

function verifyRequest(names: string[]) {
  const output = names.map((name, index) => ({ type: "function_call", name, arguments: "{}", call_id: `call_${index}` }));
  return {
    responses_create_params: { input: "count" },
    response: { id: "resp_1", object: "response", created_at: 0, model: "m", output },
    expected_count: 6,
  };
}

// example_mcp_weather on NeMo Gym's recorded rollouts: each one's tool calls replayed over MCP with the official client
// (as the Claude Code agent made them), then /verify with the record gives NeMo Gym's reward and fields.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtureRollouts } from "../helpers/fixtures.js";
import { startTestLocal } from "../helpers/local.js";
import { verdict, withTaskFields } from "../helpers/parity.js";
import { API_TOKENS, mcpClient, post, seed } from "./helpers.js";

const NAME = "example_mcp_weather";
let local: Awaited<ReturnType<typeof startTestLocal>>;
const clients: Client[] = [];

beforeAll(async () => {
  local = await startTestLocal({ environments: [NAME], apiTokens: API_TOKENS });
}, 180_000);

afterAll(async () => {
  for (const client of clients) await client.close();
  await local?.stop();
});

type Item = { type: string; name?: string; arguments?: string; call_id?: string; output?: string };

describe("example_mcp_weather", () => {
  const rollouts = fixtureRollouts(NAME);

  it("has NeMo Gym's five recorded rollouts", () => {
    expect(rollouts.map((record) => record.reward)).toEqual([1, 1, 1, 1, 1]);
  });

  it.each(rollouts.map((record, i) => [i, record] as const))("recorded rollout %i: replayed over MCP, same reward and fields", async (_i, record) => {
    const { reward: _reward, ...request } = withTaskFields(NAME, record);
    const { responses_create_params: _params, response: _response, ...row } = request;
    const seeded = await seed(local.url, NAME, { responses_create_params: record.responses_create_params, ...row });
    expect(seeded.body.mcp.server_name).toBe(NAME);
    const client = await mcpClient(local.url, NAME, seeded.body.mcp.headers);
    clients.push(client);
    const output = (record.response as { output: Item[] }).output;
    for (const call of output.filter((item) => item.type === "function_call")) {
      const result = await client.callTool({ name: call.name ?? "", arguments: JSON.parse(call.arguments ?? "{}") as Record<string, unknown> });
      const recorded = output.find((item) => item.type === "function_call_output" && item.call_id === call.call_id);
      expect(result.structuredContent).toEqual({ weather: recorded?.output });
    }
    const verified = await post(local.url, NAME, "verify", request, seeded.sessionId);
    expect(verified.status).toBe(200);
    expect(verified.body.reward).toBe(record.reward);
    for (const [key, value] of Object.entries(verdict(record))) expect(verified.body[key], key).toEqual(value);
  });

  it("scores 0 when the session never called the tool, whatever the answer says", async () => {
    const record = rollouts[0] ?? {};
    const { reward: _reward, ...request } = withTaskFields(NAME, record);
    const seeded = await seed(local.url, NAME, { verifier_metadata: request.verifier_metadata });
    const verified = await post(local.url, NAME, "verify", request, seeded.sessionId);
    expect(verified.body).toMatchObject({ reward: 0, tool_call_seen: false, final_response_mentions_weather: true });
  });

  it("scores 0 when the tool was asked for another city, and 1 for the expected one in other casing", async () => {
    const { reward: _reward, ...request } = withTaskFields(NAME, rollouts[0] ?? {});
    const seeded = await seed(local.url, NAME, { verifier_metadata: request.verifier_metadata });
    expect((await post(local.url, NAME, "get_weather", { city: "Lyon" }, seeded.sessionId)).status).toBe(200);
    expect((await post(local.url, NAME, "verify", request, seeded.sessionId)).body).toMatchObject({ reward: 0, tool_call_seen: false });
    expect((await post(local.url, NAME, "get_weather", { city: "PARIS" }, seeded.sessionId)).status).toBe(200);
    expect((await post(local.url, NAME, "verify", request, seeded.sessionId)).body).toMatchObject({ reward: 1, tool_call_seen: true });
  });
});

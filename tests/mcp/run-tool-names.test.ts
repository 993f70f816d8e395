// /run?tool_names=mcp through the local emulation: the simulator is offered example_mcp_weather's tool by its MCP name
// (as NeMo Gym's claude_code_agent offers it), calls it so, and the record keeps that name and NeMo Gym's reward.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exampleDataset } from "../../local/environments.js";
import { postJson, startTestLocal } from "../helpers/local.js";

const NAME = "example_mcp_weather";
const MCP_NAME = `mcp__${NAME}__get_weather`;
let local: Awaited<ReturnType<typeof startTestLocal>>;

beforeAll(async () => {
  local = await startTestLocal({ environments: [NAME] });
}, 180_000);

afterAll(async () => {
  await local?.stop();
});

const rows = readFileSync(exampleDataset(NAME) ?? "", "utf8")
  .split("\n")
  .filter(Boolean)
  .map((line) => JSON.parse(line) as { verifier_metadata: { expected_city: string } });

type Item = { type: string; name?: string; arguments?: string; call_id?: string; output?: string };

describe("/run?tool_names=mcp against example_mcp_weather", () => {
  it.each(rows.map((row) => [row.verifier_metadata.expected_city, row] as const))(
    "%s: the model calls the mcp__ tool, the record keeps the name, reward 1 as NeMo Gym's",
    async (city, row) => {
      const answer = await postJson(`${local.url}/run?environment=${NAME}&tool_names=mcp`, row);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const output = answer.body.response.output as Item[];
      const calls = output.filter((item) => item.type === "function_call");
      expect(calls.map((call) => [call.name, JSON.parse(call.arguments ?? "")])).toEqual([[MCP_NAME, { city }]]);
      const result = output.find((item) => item.type === "function_call_output" && item.call_id === calls[0]?.call_id);
      expect(JSON.parse(result?.output ?? "")).toEqual({ weather: `The weather in ${city} is sunny and 72 F.` });
      expect(answer.body.response.tools.map((tool: { name: string }) => tool.name)).toEqual([MCP_NAME]);
      expect(answer.body).toMatchObject({
        reward: 1,
        expected_weather: `The weather in ${city} is sunny and 72 F.`,
        tool_call_seen: true,
        final_response_mentions_weather: true,
      });
    },
  );

  it("without tool_names=mcp the row offers no tool, so the model calls none and the reward is 0", async () => {
    const answer = await postJson(`${local.url}/run?environment=${NAME}`, rows[0]);
    expect(answer.status).toBe(200);
    expect((answer.body.response.output as Item[]).filter((item) => item.type === "function_call")).toEqual([]);
    expect(answer.body).toMatchObject({ reward: 0, tool_call_seen: false });
  });

  it("a bad tool_names is a 400 naming the field, on /run and on a job", async () => {
    const run = await postJson(`${local.url}/run?environment=${NAME}&tool_names=claude`, rows[0]);
    expect(run.status).toBe(400);
    expect(run.body.error.code).toBe("invalid_request");
    expect(run.body.error.issues.map((issue: { path: string[] }) => issue.path)).toEqual([["tool_names"]]);
    const job = await postJson(`${local.url}/v1/jobs`, { environment: NAME, tool_names: "MCP", rows });
    expect(job.status).toBe(400);
    expect(job.body.error.issues.map((issue: { path: string[] }) => issue.path)).toEqual([["tool_names"]]);
  });
});

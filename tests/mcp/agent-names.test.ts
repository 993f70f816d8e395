// The agent and MCP names: a model that calls `mcp__<environment>__<tool>` (as MCP-native harnesses name tools) reaches
// the bare tool, the record keeps the name it wrote, and /verify scores it as the plain name (NeMo Gym's normalization).
import { beforeEach, describe, expect, it } from "vitest";
import gymnasium from "../../environments/example_multi_turn_gymnasium/index.js";
import counter from "../../environments/example_session_state_mgmt/index.js";
import { inProcessEnvironment } from "../../environments/sdk/in-process.js";
import { executeRow } from "../../functions/agent/execute.js";
import { clearEnvironmentKinds } from "../../functions/agent/kind.js";
import { DatasetRow } from "../../protocol/index.js";
import { fakePorts, modelResponse, scriptedModel } from "../helpers/agent-ports.js";

beforeEach(() => clearEnvironmentKinds());

describe("a rollout whose model names tools the MCP way", () => {
  it("calls the bare tool, records the emitted name, and scores as the plain call would", async () => {
    const model = scriptedModel([
      modelResponse({ calls: [{ name: "mcp__example_session_state_mgmt__increment_counter", arguments: '{"count": 5}' }] }),
      modelResponse({ text: "done" }),
    ]);
    const ports = fakePorts({ environments: { example_session_state_mgmt: inProcessEnvironment(counter) }, model });
    const row = DatasetRow.parse({ responses_create_params: { input: "add 5" }, initial_count: 1, expected_count: 6 });

    const { record } = await executeRow(ports, row, { environment: "example_session_state_mgmt" });

    const output = (record.response as { output: { type: string; name?: string; output?: string }[] }).output;
    expect(output.find((item) => item.type === "function_call")?.name).toBe("mcp__example_session_state_mgmt__increment_counter");
    expect(output.find((item) => item.type === "function_call_output")?.output).toBe('{"success":true}');
    expect(record.reward).toBe(1);
  });
});

describe("tool_names=mcp: the model sees the environment's tools by their MCP names", () => {
  const row = () => DatasetRow.parse({ responses_create_params: { input: "add 5", tools: [] }, initial_count: 1, expected_count: 6 });

  it("offers the environment's listing as mcp__<environment>__<tool>, routes the call to the bare tool, and scores it", async () => {
    const model = scriptedModel([
      modelResponse({ calls: [{ name: "mcp__example_session_state_mgmt__increment_counter", arguments: '{"count": 5}' }] }),
      modelResponse({ text: "done" }),
    ]);
    const ports = fakePorts({ environments: { example_session_state_mgmt: inProcessEnvironment(counter) }, model });

    // The row offers one of the environment's tools by its plain name and a tool of its own: the first is offered once,
    // under its MCP name, the second as it is.
    const tools = [
      { type: "function", name: "increment_counter", parameters: { type: "object", properties: { count: { type: "integer" } } } },
      { type: "function", name: "web_search", parameters: { type: "object", properties: {} } },
    ];
    const offeredRow = DatasetRow.parse({ ...row(), responses_create_params: { input: "add 5", tools } });

    const { record } = await executeRow(ports, offeredRow, { environment: "example_session_state_mgmt", toolNames: "mcp" });

    const offered = (model.calls[0] as { tools: { name: string }[] }).tools.map((tool) => tool.name);
    expect(offered).toEqual(["mcp__example_session_state_mgmt__increment_counter", "mcp__example_session_state_mgmt__get_counter_value", "web_search"]);
    const output = (record.response as { output: { type: string; name?: string; output?: string }[] }).output;
    expect(output.find((item) => item.type === "function_call")?.name).toBe("mcp__example_session_state_mgmt__increment_counter");
    expect(output.find((item) => item.type === "function_call_output")?.output).toBe('{"success":true}');
    expect(record.reward).toBe(1);
  });

  it("a bare or another server's name is not a tool under this mode: the model is told, the counter is untouched", async () => {
    const model = scriptedModel([
      modelResponse({
        calls: [
          { name: "increment_counter", arguments: '{"count": 5}' },
          { name: "mcp__other_server__increment_counter", arguments: '{"count": 5}' },
        ],
      }),
      modelResponse({ text: "done" }),
    ]);
    const ports = fakePorts({ environments: { example_session_state_mgmt: inProcessEnvironment(counter) }, model });

    const { record } = await executeRow(ports, row(), { environment: "example_session_state_mgmt", toolNames: "mcp" });

    const outputs = (record.response as { output: { type: string; output?: string }[] }).output.filter((item) => item.type === "function_call_output");
    expect(outputs.map((item) => item.output)).toEqual([
      JSON.stringify({ error: "Unknown tool: increment_counter" }),
      JSON.stringify({ error: "Unknown tool: mcp__other_server__increment_counter" }),
    ]);
    expect(record.reward).toBe(0);
  });

  it("a gymnasium environment has no MCP tools to name: 400 before any model call", async () => {
    const model = scriptedModel([]);
    const ports = fakePorts({ environments: { example_multi_turn_gymnasium: inProcessEnvironment(gymnasium) }, model });
    const row = DatasetRow.parse({ responses_create_params: { input: "play" } });
    await expect(executeRow(ports, row, { environment: "example_multi_turn_gymnasium", toolNames: "mcp" })).rejects.toMatchObject({
      status: 400,
      code: "invalid_request",
      message: "tool_names=mcp: example_multi_turn_gymnasium is a gymnasium environment (reset/step); its tools are not served over MCP",
    });
    expect(model.calls).toEqual([]);
  });
});

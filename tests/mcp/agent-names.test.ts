// The agent and MCP names: a model that calls `mcp__<environment>__<tool>` (as MCP-native harnesses name tools) reaches
// the bare tool, the record keeps the name it wrote, and /verify scores it as the plain name (NeMo Gym's normalization).
import { beforeEach, describe, expect, it } from "vitest";
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

// A simple rollout (NeMo Gym's simple agent) behind fake ports: what its record says about the model's work.
import { beforeEach, describe, expect, it } from "vitest";
import { executeRow } from "../../functions/agent/execute.js";
import { clearEnvironmentKinds } from "../../functions/agent/kind.js";
import { DatasetRow } from "../../protocol/index.js";
import { fakePorts, modelResponse, scriptedModel, simpleEnvironment } from "../helpers/agent-ports.js";

beforeEach(() => clearEnvironmentKinds());

describe("a simple rollout's record", () => {
  it("sums the usage of every model turn, cached and reasoning tokens included (as NeMo Gym's accumulate_response_usage)", async () => {
    const lookup = { calls: [{ name: "lookup", arguments: '{"key": "a"}' }] };
    const model = scriptedModel([
      modelResponse(lookup, { input: 10, output: 3, cached: 4, reasoning: 2 }),
      modelResponse(lookup, { input: 20, output: 5, cached: 6, reasoning: 1 }),
      modelResponse({ text: "the answer" }, { input: 30, output: 7, cached: 8, reasoning: 0 }),
    ]);
    const ports = fakePorts({ environments: { toy: simpleEnvironment("toy") }, model });
    const row = DatasetRow.parse({ responses_create_params: { input: "look it up" } });

    const { record } = await executeRow(ports, row, { environment: "toy" });

    expect(model.calls).toHaveLength(3);
    expect((record.response as { usage: unknown }).usage).toEqual({
      input_tokens: 60,
      input_tokens_details: { cached_tokens: 18 },
      output_tokens: 15,
      output_tokens_details: { reasoning_tokens: 3 },
      total_tokens: 75,
    });
  });
});

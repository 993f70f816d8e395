// Every call of a rollout is bounded (its own timeout, never past the rollout's deadline): a hung tool or model ends as
// NeMo Gym would have it, without a timer left behind.
import { beforeEach, describe, expect, it } from "vitest";
import { executeRow } from "../../functions/agent/execute.js";
import { clearEnvironmentKinds } from "../../functions/agent/kind.js";
import { RolloutFailure } from "../../functions/agent/failure.js";
import { DatasetRow } from "../../protocol/index.js";
import { fakePorts, modelResponse, scriptedModel, simpleEnvironment } from "../helpers/agent-ports.js";

beforeEach(() => clearEnvironmentKinds());

const row = DatasetRow.parse({ responses_create_params: { input: "look it up" } });
const never = <T>(): Promise<T> => new Promise<T>(() => undefined);

describe("a rollout's calls are bounded", () => {
  it("a tool that never answers becomes an error output the model sees after TOOL_TIMEOUT_MS, and the rollout goes on", async () => {
    const environment = { ...simpleEnvironment("toy"), tool: () => never<never>() };
    const model = scriptedModel([modelResponse({ calls: [{ name: "lookup", arguments: "{}" }] }), modelResponse({ text: "done" })]);
    const ports = fakePorts({ environments: { toy: environment }, model, vars: { TOOL_TIMEOUT_MS: "50" } });

    const { record } = await executeRow(ports, row, { environment: "toy" });

    const output = (record.response as { output: { type: string; output?: string }[] }).output;
    const toolOutput = output.find((item) => item.type === "function_call_output");
    expect(toolOutput?.output).toContain("Tool lookup failed");
    expect(toolOutput?.output).toContain("did not answer before the deadline");
    expect(record.reward).toBe(1);
  });

  it("a model that never answers fails the rollout as a timeout once MODEL_TIMEOUT_MS has passed", async () => {
    const model = { calls: [], respond: () => never<never>() };
    const ports = fakePorts({ environments: { toy: simpleEnvironment("toy") }, model, vars: { MODEL_TIMEOUT_MS: "50" } });

    const failure = await executeRow(ports, row, { environment: "toy" }).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(RolloutFailure);
    expect((failure as RolloutFailure).code).toBe("timeout");
    expect((failure as RolloutFailure).status).toBe(504);
  });

  it("no call outlives the rollout's deadline: the proxy is told the time left, the wait ends with the deadline", async () => {
    const asked: number[] = [];
    const model = {
      calls: [],
      respond: (_params: unknown, options?: { timeoutMs?: number }) => {
        asked.push(options?.timeoutMs ?? Number.NaN);
        return never<never>();
      },
    };
    const ports = fakePorts({ environments: { toy: simpleEnvironment("toy") }, model, vars: { ROLLOUT_TIMEOUT_MS: "80", MODEL_TIMEOUT_MS: "60000" } });

    // (Waiting out MODEL_TIMEOUT_MS instead would outlast the test's own timeout.)
    const failure = await executeRow(ports, row, { environment: "toy" }).catch((error: unknown) => error);

    expect((failure as RolloutFailure).code).toBe("timeout");
    expect(asked[0]).toBeLessThanOrEqual(80);
  });
});

// Every call of a rollout is bounded (its own timeout, never past the rollout's deadline): a hung tool or model ends as
// a classified failure (tool_timeout, model_timeout), without a timer left behind.
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
  it("a tool that never answers fails the rollout as tool_timeout once TOOL_TIMEOUT_MS has passed (retried as a whole)", async () => {
    const environment = { ...simpleEnvironment("toy"), tool: () => never<never>() };
    const model = scriptedModel([modelResponse({ calls: [{ name: "lookup", arguments: "{}" }] }), modelResponse({ text: "done" })]);
    const ports = fakePorts({ environments: { toy: environment }, model, vars: { TOOL_TIMEOUT_MS: "50" } });

    const started = Date.now();
    const failure = await executeRow(ports, row, { environment: "toy" }).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(RolloutFailure);
    expect((failure as RolloutFailure).code).toBe("tool_timeout");
    expect((failure as RolloutFailure).message).toContain("tool lookup did not answer within its timeout (50 ms)");
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(model.calls).toHaveLength(1);
  });

  it("a model that never answers fails the rollout as a timeout once MODEL_TIMEOUT_MS has passed", async () => {
    const model = { calls: [], respond: () => never<never>() };
    const ports = fakePorts({ environments: { toy: simpleEnvironment("toy") }, model, vars: { MODEL_TIMEOUT_MS: "50" } });

    const failure = await executeRow(ports, row, { environment: "toy" }).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(RolloutFailure);
    expect((failure as RolloutFailure).code).toBe("model_timeout");
    expect((failure as RolloutFailure).message).toContain("within its timeout (50 ms)");
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

    expect((failure as RolloutFailure).code).toBe("model_timeout");
    expect((failure as RolloutFailure).message).toContain("within the rollout's deadline");
    expect(asked[0]).toBeLessThanOrEqual(80);
  });
});

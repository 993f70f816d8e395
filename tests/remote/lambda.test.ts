// The AWS path: the agent Lambda's ports with a remote environment (EDGEGYM_REMOTES) beside the in-process ones,
// a rollout of it run against the Python stand-in as the Lambda would run it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lambdaRemotes, withRemotes } from "../../aws/remotes.js";
import { runRollout } from "../../functions/agent/rollout.js";
import type { DatasetRow } from "../../protocol/index.js";
import { fakePorts, modelResponse, scriptedModel, simpleEnvironment } from "../helpers/agent-ports.js";
import { type StandIn, startStandIn } from "./stand-in.js";

let server: StandIn;
beforeAll(async () => {
  server = await startStandIn();
});
afterAll(() => server.stop());

describe("remote environments on the agent Lambda", () => {
  it("lists and resolves the remote beside the bundled ones, and runs a rollout on it", async () => {
    const remotes = lambdaRemotes({
      EDGEGYM_REMOTES: JSON.stringify({ remotes: [{ name: "stand_in", baseUrls: [server.url], auth: { kind: "bearer", secret: "STAND_IN_TOKEN" } }] }),
      STAND_IN_TOKEN: "lambda-secret-0123456789",
    });
    expect(remotes.map((c) => c.name)).toEqual(["stand_in"]);
    let turn = 0;
    const model = scriptedModel(() => (turn++ === 0 ? modelResponse({ calls: [{ name: "count", arguments: "{}" }] }) : modelResponse({ text: "done" })));
    const base = fakePorts({ environments: { example_multi_step: simpleEnvironment("example_multi_step") }, model });
    const ports = withRemotes(base, remotes, { STAND_IN_TOKEN: "lambda-secret-0123456789" });
    expect(ports.environments).toEqual(["example_multi_step", "stand_in"]);
    expect(ports.config.ENVIRONMENTS).toEqual(["example_multi_step", "stand_in"]);
    expect(ports.environment("example_multi_step")).toBe(base.environment("example_multi_step"));
    const row = { responses_create_params: { input: "count" }, expected_count: 1 } as DatasetRow;
    const record = await runRollout(
      row,
      { model, resources: ports.environment("stand_in")!, owner: { rollout: "r", token: "t" } },
      {
        maxSteps: 4,
        deadlineAt: Date.now() + 30_000,
        modelTimeoutMs: 5_000,
        toolTimeoutMs: 5_000,
      },
    );
    expect(record.reward).toBe(1);
    const last = (await server.seen()).seen.at(-1);
    expect(last?.authorization).toBe("Bearer lambda-secret-0123456789");
  });

  it("has none without EDGEGYM_REMOTES, and refuses a remote named like a bundled environment", () => {
    expect(lambdaRemotes({})).toEqual([]);
    const base = fakePorts({ environments: { stand_in: simpleEnvironment("stand_in") }, model: scriptedModel([]) });
    const remotes = lambdaRemotes({ EDGEGYM_REMOTES: JSON.stringify({ remotes: [{ name: "stand_in", baseUrls: [server.url] }] }) });
    expect(() => withRemotes(base, remotes, {})).toThrow("remote environment stand_in has a bundled environment's name");
  });
});

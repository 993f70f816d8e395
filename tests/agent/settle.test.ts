// One rollout message to its end: a transient error sending the result is retried on its own, not by running the rollout again.
import { describe, expect, it } from "vitest";
import { decodeResult, type RolloutMessage } from "../../contracts/messages.js";
import { chunkReader } from "../../functions/agent/chunks.js";
import { clearEnvironmentKinds } from "../../functions/agent/kind.js";
import { settleRollout } from "../../functions/agent/settle.js";
import { fakePorts, modelResponse, scriptedModel, simpleEnvironment } from "../helpers/agent-ports.js";

const message: RolloutMessage = {
  kind: "rollout",
  job_id: "job_s",
  task_index: 3,
  rollout_index: 1,
  attempt: 1,
  row: { responses_create_params: { input: "q" } },
};

describe("settleRollout", () => {
  it("sends the result again when the queue refuses it once: the model is asked once, the result sent once, the rollout done", async () => {
    clearEnvironmentKinds();
    const model = scriptedModel(() => modelResponse({ text: "done" }));
    const ports = fakePorts({ environments: { toy: simpleEnvironment("toy") }, model, vars: { ENVIRONMENTS: "toy" } });
    const send = ports.results.send.bind(ports.results);
    let refusals = 1;
    ports.results.send = async (body, options) => {
      if (refusals-- > 0) throw new Error("queue busy");
      return send(body, options);
    };
    const row = { ...message, row: { ...message.row!, agent_ref: { type: "responses_api_agents", name: "toy_simple_agent" } } };

    const settled = await settleRollout(ports, row, 1, chunkReader(ports), undefined);

    expect(settled).toEqual({ kind: "done" });
    expect(model.calls).toHaveLength(1);
    expect(ports.results.sent.map((text) => decodeResult(text).header.rollout_index)).toEqual([1]);
  });

  it("a result the queue keeps refusing leaves the rollout to be retried (its message comes back)", async () => {
    clearEnvironmentKinds();
    const ports = fakePorts({
      environments: { toy: simpleEnvironment("toy") },
      model: scriptedModel(() => modelResponse({ text: "done" })),
      vars: { RETRY_BASE_SECONDS: "1" },
    });
    ports.results.send = async () => {
      throw new Error("queue down");
    };
    const row = { ...message, row: { ...message.row!, agent_ref: { type: "responses_api_agents", name: "toy_simple_agent" } } };
    const settled = await settleRollout(ports, row, 1, chunkReader(ports), undefined);
    expect(settled.kind).toBe("retry");
  });
});

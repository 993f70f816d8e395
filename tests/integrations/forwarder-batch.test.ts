// The NeMo RL forwarder (integrations/nemo_gym/edgegym_agent.py --batch-window-ms): /run calls that arrive together go
// to the gateway as one POST /run/batch, and each caller gets its own record; a bad row costs only its own caller.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import { fixtureRows } from "../helpers/fixtures.js";
import { startTestLocal } from "../helpers/local.js";
import { type AgentServer, startAgentServer } from "./agent-server.js";

const ENV = "example_multi_step";
let local: Local;
let forwarder: AgentServer;
beforeAll(async () => {
  local = await startTestLocal({ environments: [ENV] });
  forwarder = await startAgentServer(["--gateway", local.url, "--token", local.token ?? "", "--environment", ENV, "--batch-window-ms", "200", "--verbose"]);
});
afterAll(async () => {
  await forwarder?.stop();
  await local?.stop();
});

async function run(body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`http://${forwarder.host}:${forwarder.port}/run`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

describe("the forwarder's batching", () => {
  it("answers each of six concurrent /run calls with its own record, through batched requests", async () => {
    const rows = fixtureRows(ENV).slice(0, 3);
    const calls = rows.flatMap((row, task) => [0, 1].map((repeat) => ({ ...row, _ng_task_index: task, _ng_rollout_index: repeat })));
    const answers = await Promise.all(calls.map(run));
    for (const [i, answer] of answers.entries()) {
      expect(answer.status, forwarder.stderr()).toBe(200);
      expect(typeof answer.json.reward).toBe("number");
      expect([answer.json._ng_task_index, answer.json._ng_rollout_index]).toEqual([calls[i]?._ng_task_index, calls[i]?._ng_rollout_index]);
    }
    const batches = [...forwarder.stderr().matchAll(/POST \/run\/batch: (\d+) rows/g)].map((m) => Number(m[1]));
    expect(batches.reduce((a, b) => a + b, 0)).toBe(6);
    expect(batches.length).toBeLessThan(6);
  });

  it("a bad row among them gets its own 400; the others their records", async () => {
    const good = fixtureRows(ENV).slice(0, 2);
    const answers = await Promise.all([run(good[0]), run({ responses_create_params: { input: 5 } }), run(good[1])]);
    expect(answers.map((a) => a.status)).toEqual([200, 400, 200]);
    expect(answers[1]?.json.error).toMatchObject({ code: "invalid_request" });
    expect(typeof answers[0]?.json.reward).toBe("number");
  });
});

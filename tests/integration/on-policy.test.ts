// A three-turn tool-using rollout with token ids on: the record carries, turn by turn, exactly what the model produced.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import { promptTokenIds } from "../../local/simulator/template.js";
import { fixtureRows } from "../helpers/fixtures.js";
import { postJson, startTestLocal } from "../helpers/local.js";

let local: Local;
beforeAll(async () => {
  local = await startTestLocal({
    environments: ["example_session_state_mgmt"],
    vars: { modelProxy: { RETURN_TOKEN_ID_INFORMATION: "true" } },
  });
});
afterAll(async () => {
  await local?.stop();
});

interface TrainingItem {
  type: string;
  prompt_token_ids?: number[];
  generation_token_ids?: number[];
  generation_log_probs?: number[];
}

describe("on-policy token ids through /run", () => {
  it("each model call's ids on its last item, equal to the simulator's; every prompt extends the previous prompt and generation", async () => {
    const sim = local.simulator!;
    sim.script(
      { tool_calls: [{ name: "increment_counter", arguments: { count: 4 } }] },
      { reasoning: "Four is in; five to go.", tool_calls: [{ name: "increment_counter", arguments: { count: 5 } }] },
      { content: "The count is 15." },
    );
    const row = fixtureRows("example_session_state_mgmt")[1]!; // start at 6, add 4 then 5
    const answer = await postJson(`${local.url}/run?environment=example_session_state_mgmt`, row);
    expect(answer.status).toBe(200);
    expect(answer.body.reward).toBe(1);

    const output = answer.body.response.output as TrainingItem[];
    expect(output.map((item) => item.type)).toEqual(["function_call", "function_call_output", "reasoning", "function_call", "function_call_output", "message"]);
    // The last item of each model call carries the ids; nothing else does (tool outputs never).
    expect(output.map((item) => item.prompt_token_ids !== undefined)).toEqual([true, false, false, true, false, true]);

    const turns = output.filter((item) => item.prompt_token_ids !== undefined);
    expect(sim.generations).toHaveLength(3);
    turns.forEach((item, k) => {
      const produced = sim.generations[k]!;
      expect(item.prompt_token_ids).toEqual(produced.prompt_token_ids);
      expect(item.generation_token_ids).toEqual(produced.generation_token_ids);
      expect(item.generation_log_probs).toEqual(produced.generation_log_probs);
      if (k > 0) {
        const before = [...turns[k - 1]!.prompt_token_ids!, ...turns[k - 1]!.generation_token_ids!];
        expect(item.prompt_token_ids!.slice(0, before.length)).toEqual(before);
      }
    });

    // The proxy sent the earlier ids back on the assistant messages; without them the template would have re-rendered
    // the tool call differently, and the last prompt would not extend what the model saw and sampled.
    const last = sim.requests[2]!;
    const assistants = last.messages.filter((m) => m.role === "assistant");
    expect(assistants.map((m) => m.generation_token_ids)).toEqual([sim.generations[0]!.generation_token_ids, sim.generations[1]!.generation_token_ids]);
    const stripped = last.messages.map(({ prompt_token_ids: _p, generation_token_ids: _g, generation_log_probs: _l, ...message }) => message);
    const retemplated = promptTokenIds({ messages: stripped as typeof last.messages, tools: last.tools ?? null });
    const exact = [...turns[1]!.prompt_token_ids!, ...turns[1]!.generation_token_ids!];
    expect(retemplated.slice(0, exact.length)).not.toEqual(exact);
  });
});

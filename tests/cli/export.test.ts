// `edgegym export`: SFT keeps good rollouts as chat transcripts with tool calls; DPO pairs a better and a worse rollout of one task.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { itemsToMessages } from "../../local/cli/chat-format.js";
import { exportRollouts, type ExportOptions } from "../../local/cli/export.js";
import { edgegym } from "../helpers/cli.js";
import { FIXTURES, fixtureRollouts, readJsonl } from "../helpers/fixtures.js";

const dir = mkdtempSync(path.join(tmpdir(), "edgegym-export-"));
const tool = {
  type: "function",
  name: "get_weather",
  description: "Weather of a city",
  parameters: { type: "object", properties: { city: { type: "string" } } },
  strict: true,
};
const call = (id: string, city: string) => ({ type: "function_call", call_id: id, name: "get_weather", arguments: JSON.stringify({ city }) });
const output = (id: string, text: string) => ({ type: "function_call_output", call_id: id, output: text });
const say = (text: string) => ({ type: "message", role: "assistant", content: [{ type: "output_text", text, annotations: [] }] });

function rollout(task: number, repeat: number, reward: number, items: unknown[]): Record<string, unknown> {
  return {
    responses_create_params: { instructions: "Be brief.", input: [{ role: "user", content: `Weather in city ${task}?` }], tools: [tool] },
    response: {
      id: `r${task}${repeat}`,
      object: "response",
      created_at: 0,
      model: "m",
      output: items,
      parallel_tool_calls: true,
      tool_choice: "auto",
      tools: [],
    },
    reward,
    agent_ref: { type: "responses_api_agents", name: "example_single_tool_call_simple_agent" },
    _ng_task_index: task,
    _ng_rollout_index: repeat,
    _ng_rollout_id: `job:${task}:${repeat}`,
  };
}

const good = (task: number, repeat: number, reward = 1) =>
  rollout(task, repeat, reward, [call(`c${repeat}`, "Paris"), output(`c${repeat}`, '{"weather":"cold"}'), say("Cold.")]);
const bad = (task: number, repeat: number, reward = 0) => rollout(task, repeat, reward, [say("No idea.")]);

const records = [
  good(0, 0),
  bad(0, 1),
  good(0, 2, 0.5),
  bad(1, 0),
  bad(1, 1),
  good(2, 0),
  { _ng_task_index: 3, _ng_rollout_index: 0, failure_class: "timeout", message: "too slow" },
  "{cut short",
];
const input = path.join(dir, "rollouts.jsonl");
writeFileSync(input, `${records.map((r) => (typeof r === "string" ? r : JSON.stringify(r))).join("\n")}\n`);

const base: ExportOptions = { input, output: "", format: "sft", minReward: 1, pairing: "best-worst", minMargin: 0 };
const PROMPT = [
  { role: "system", content: "Be brief." },
  { role: "user", content: "Weather in city 0?" },
];
const GOOD_TURNS = (id: string) => [
  { role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }] },
  { role: "tool", tool_call_id: id, content: '{"weather":"cold"}' },
  { role: "assistant", content: "Cold." },
];
const CHAT_TOOLS = [{ type: "function", function: { name: "get_weather", description: "Weather of a city", parameters: tool.parameters, strict: true } }];

describe("SFT", () => {
  it("keeps rollouts at or above the reward threshold, as chat transcripts with the tool calls, and says what it dropped", async () => {
    const out = path.join(dir, "sft.jsonl");
    const summary = await exportRollouts({ ...base, output: out, metadata: true });
    expect(readJsonl(out)).toEqual([
      {
        messages: [...PROMPT, ...GOOD_TURNS("c0")],
        tools: CHAT_TOOLS,
        metadata: { environment: "example_single_tool_call", task_index: 0, rollout_index: 0, reward: 1 },
      },
      {
        messages: [PROMPT[0], { role: "user", content: "Weather in city 2?" }, ...GOOD_TURNS("c0")],
        tools: CHAT_TOOLS,
        metadata: { environment: "example_single_tool_call", task_index: 2, rollout_index: 0, reward: 1 },
      },
    ]);
    expect(summary).toMatchObject({ read: 8, written: 2, skipped: { not_a_rollout: 1, failed: 1 }, sft: { below_min_reward: 4, over_max_per_task: 0 } });
  });

  it("--min-reward and --max-per-task choose how many of a task stay", async () => {
    const out = path.join(dir, "sft-half.jsonl");
    const summary = await exportRollouts({ ...base, output: out, minReward: 0.5, maxPerTask: 1, metadata: true });
    expect(readJsonl(out).map((r) => r.metadata)).toMatchObject([{ task_index: 0, rollout_index: 0 }, { task_index: 2 }]);
    expect(summary.sft).toEqual({ below_min_reward: 3, over_max_per_task: 1 });
  });
});

describe("DPO", () => {
  it("best-worst: one pair a task with a reward spread (prompt, chosen, rejected)", async () => {
    const out = path.join(dir, "dpo.jsonl");
    const summary = await exportRollouts({ ...base, format: "dpo", output: out });
    expect(readJsonl(out)).toEqual([{ prompt: PROMPT, chosen: GOOD_TURNS("c0"), rejected: [{ role: "assistant", content: "No idea." }], tools: CHAT_TOOLS }]);
    expect(summary.dpo).toEqual({ tasks: 3, single_rollout: 1, no_reward_spread: 1, below_margin: 0 });
  });

  it("all: every higher/lower pair; --min-margin drops the close ones", async () => {
    const out = path.join(dir, "dpo-all.jsonl");
    await exportRollouts({ ...base, format: "dpo", pairing: "all", output: out, metadata: true });
    const pairs = readJsonl(out).map((r) => {
      const m = r.metadata as { chosen: { rollout_index: number }; rejected: { rollout_index: number } };
      return [m.chosen.rollout_index, m.rejected.rollout_index];
    });
    expect(pairs).toEqual([
      [0, 2],
      [0, 1],
      [2, 1],
    ]);
    const summary = await exportRollouts({ ...base, format: "dpo", pairing: "all", minMargin: 0.6, output: out, metadata: true });
    expect(readJsonl(out)).toHaveLength(1);
    expect(summary.written).toBe(1);
  });
});

describe("chat format", () => {
  it("parallel tool calls are one assistant turn; reasoning is kept only when asked; developer is system", () => {
    const items = [
      { type: "reasoning", summary: [{ type: "summary_text", text: "two cities" }] },
      call("a", "Paris"),
      call("b", "Rome"),
      output("a", "cold"),
      output("b", "warm"),
      { role: "developer", content: "Answer in English." },
    ];
    expect(itemsToMessages(items)).toEqual([
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "a", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
          { id: "b", type: "function", function: { name: "get_weather", arguments: '{"city":"Rome"}' } },
        ],
      },
      { role: "tool", tool_call_id: "a", content: "cold" },
      { role: "tool", tool_call_id: "b", content: "warm" },
      { role: "system", content: "Answer in English." },
    ]);
    expect(itemsToMessages(items, { reasoning: true })[0]).toMatchObject({ reasoning_content: "two cities" });
  });

  it("the command exports NeMo Gym's recorded rollouts and prints the summary", async () => {
    const out = path.join(dir, "ng-sft.jsonl");
    const result = await edgegym([
      "export",
      "--format",
      "sft",
      "-i",
      path.join(FIXTURES, "example_multi_step", "example_rollouts.jsonl"),
      "-o",
      out,
      "--min-reward",
      "0",
    ]);
    expect(result.code).toBe(0);
    const exported = readJsonl(out);
    expect(exported).toHaveLength(fixtureRollouts("example_multi_step").length);
    const messages = exported[0]!.messages as { role: string; tool_calls?: unknown[] }[];
    expect(messages.filter((m) => m.role === "tool")).toHaveLength(3);
    expect(messages.at(-1)!.role).toBe("assistant");
    expect(JSON.parse(result.stdout)).toMatchObject({ format: "sft", read: 5, written: 5 });
  });
});

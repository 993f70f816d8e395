// The simulator policy drives the NeMo Gym example environments' rows to a final answer.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { decide } from "../../local/simulator/policy.js";
import { drive, loadRows, rowSchema, synonymValue, toChatRequest, type FakeTools } from "./nemo-gym.js";

const weatherTool: FakeTools = (call) => {
  const city = String(call.arguments["city"]);
  return { city, weather_description: `The weather in ${city} is cold.` };
};

describe("example_single_tool_call", () => {
  const rows = loadRows("example_single_tool_call", rowSchema);
  const userOf = (row: (typeof rows)[number]): string => row.responses_create_params.input.at(-1)!.content;

  it.each(rows.map((row) => [userOf(row), row] as const))("%s", (user, row) => {
    const rollout = drive(row, weatherTool);
    expect(rollout.final).toEqual(expect.any(String));
    expect(rollout.turns).toBeLessThanOrEqual(6);
    if (/\bsf\b/.test(user)) {
      expect(rollout.calls).toEqual([{ name: "get_weather", arguments: { city: "San Francisco" } }]);
      expect(rollout.final).toContain("The weather in San Francisco is cold.");
    } else {
      // "how's the outside?" and "3 cities in the us" name no city: ask instead of guessing.
      expect(rollout.calls).toEqual([]);
      expect(rollout.final).toMatch(/which city/i);
    }
  });
});

describe("example_tool_call_multireward", () => {
  const schema = rowSchema.extend({
    expected_call: z.object({ name: z.string(), arguments: z.record(z.string(), z.unknown()) }),
  });
  const rows = loadRows("example_tool_call_multireward", schema);

  it.each(rows.map((row) => [row.expected_call.arguments["city"], row] as const))("%s", (_city, row) => {
    const rollout = drive(row, weatherTool);
    expect(rollout.calls).toEqual([row.expected_call]);
    expect(rollout.turns).toBe(2);
    expect(rollout.final).toMatch(/\S/);
  });
});

describe("example_session_state_mgmt", () => {
  const schema = rowSchema.extend({ expected_count: z.number(), initial_count: z.number() });
  const rows = loadRows("example_session_state_mgmt", schema);

  it.each(rows.map((row) => [row.responses_create_params.input.at(-1)!.content, row] as const))("%s", (user, row) => {
    let count = row.initial_count;
    const counter: FakeTools = (call) => {
      if (call.name === "increment_counter") {
        count += Number(call.arguments["count"]);
        return { success: true };
      }
      return { count };
    };
    const rollout = drive(row, counter);
    const added = [...user.matchAll(/add (\d+)/g)].map((m) => Number(m[1]));
    expect(rollout.calls).toEqual([
      ...added.map((n) => ({ name: "increment_counter", arguments: { count: n } })),
      { name: "get_counter_value", arguments: {} },
    ]);
    // Increments go together as parallel calls, then the read, then the answer.
    expect(rollout.turns).toBe(3);
    expect(count).toBe(row.expected_count);
    expect(rollout.final).toBe(`The current count is ${row.expected_count}.`);
  });
});

describe("example_multi_step", () => {
  const schema = rowSchema.extend({
    expected_synonyms: z.array(z.string()),
    expected_synonym_values: z.array(z.number()),
    minefield_label: z.string(),
  });
  const rows = loadRows("example_multi_step", schema);
  const synonyms: FakeTools = (call) =>
    call.name === "get_synonym_value" ? { synonym_value: synonymValue(String(call.arguments["synonym"])) } : { success: true };

  it.each(rows.map((row) => [row.responses_create_params.input.at(-1)!.content, row] as const))("%s", (_query, row) => {
    const rollout = drive(row, synonyms);
    expect(rollout.calls).toEqual([
      ...row.expected_synonyms.map((synonym) => ({ name: "get_synonym_value", arguments: { synonym } })),
      { name: "extract_synonym_values", arguments: { synonym_values: row.expected_synonym_values } },
    ]);
    // parallel_tool_calls is false in these rows: one call per turn, then the answer.
    expect(rollout.turns).toBe(row.expected_synonyms.length + 2);
    expect(rollout.calls.map((c) => c.arguments["synonym"])).not.toContain(row.minefield_label);
    expect(rollout.final).toBe(`[${row.expected_synonym_values.join(", ")}]`);
  });

  it("batches the lookups when parallel tool calls are allowed", () => {
    const row = rows[0]!;
    const parallel = { ...row, responses_create_params: { ...row.responses_create_params, parallel_tool_calls: true } };
    const rollout = drive(parallel, synonyms);
    expect(rollout.turns).toBe(3);
    expect(rollout.calls.at(-1)?.arguments).toEqual({ synonym_values: row.expected_synonym_values });
  });
});

describe("termination", () => {
  const rows = loadRows("example_session_state_mgmt", rowSchema);

  it("answers in text even when tools return errors", () => {
    const rollout = drive(rows[0]!, () => "Error: tool unavailable");
    expect(rollout.final).toEqual(expect.any(String));
    expect(rollout.turns).toBeLessThanOrEqual(6);
  });

  it("does not repeat calls whose outputs never came back", () => {
    const request = toChatRequest(rows[0]!);
    const messages = [
      ...request.messages,
      {
        role: "assistant" as const,
        content: null,
        tool_calls: [{ id: "c1", type: "function" as const, function: { name: "increment_counter", arguments: '{"count":1}' } }],
      },
    ];
    const decision = decide({ ...request, messages, tools: request.tools ?? [] });
    expect(decision.tool_calls).toEqual([]);
    expect(decision.content).toMatch(/\S/);
  });
});

// `edgegym reverify`: NeMo Gym's recorded rollouts re-scored in process with the current environment code.
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { reverify } from "../../local/cli/reverify.js";
import { PROJECT_ROOT } from "../../local/paths.js";
import { edgegym } from "../helpers/cli.js";
import { FIXTURES, fixtureNames, fixtureRollouts, readJsonl } from "../helpers/fixtures.js";

const dir = mkdtempSync(path.join(tmpdir(), "edgegym-reverify-"));
// multichallenge's fixture has no recorded rollouts (NeMo Gym's file is a copy of its rows: tests/protocol/fixtures.test.ts).
const withEnvironment = fixtureNames().filter(
  (name) => existsSync(path.join(PROJECT_ROOT, "environments", name, "index.ts")) && existsSync(path.join(FIXTURES, name, "example_rollouts.jsonl")),
);
const files = (name: string) => ({ input: path.join(FIXTURES, name, "example_rollouts.jsonl"), dataset: path.join(FIXTURES, name, "example.jsonl") });

/** What cannot be re-verified without a session or a model, and why. */
const SKIPPED: Record<string, string> = {
  blackjack: "blackjack: a gymnasium environment scores each step() of the episode, which needs its session",
  example_multi_turn_gymnasium: "example_multi_turn_gymnasium: a gymnasium environment scores each step() of the episode, which needs its session",
  grl_tetris: "grl_tetris: a gymnasium environment scores each step() of the episode, which needs its session",
  example_session_state_mgmt: "example_session_state_mgmt: stateful, its verify reads session state that the rollout's tool calls built",
  text_to_sql: "text_to_sql: stateful, its verify reads session state that the rollout's tool calls built",
  workplace_assistant: "workplace_assistant: stateful, its verify reads session state that the rollout's tool calls built",
  equivalence_llm_judge: "equivalence_llm_judge: this verify asks the LLM judge, and re-verification calls no model",
  inverse_if: "inverse_if: this verify asks the LLM judge, and re-verification calls no model",
  simpleqa: "simpleqa: this verify asks the LLM judge, and re-verification calls no model",
  xstest: "xstest: this verify asks the LLM judge, and re-verification calls no model",
  example_mcp_weather: "example_mcp_weather: stateful, its verify reads session state that the rollout's tool calls built",
  code_gen: "code_gen: stateful, its verify reads session state that the rollout's tool calls built",
  math_with_code: "math_with_code: stateful, its verify reads session state that the rollout's tool calls built",
  evalplus: "evalplus: stateful, its verify reads session state that the rollout's tool calls built",
  // Its 5 recordings are re-verified to NeMo Gym's rewards with the recorded judge answers in
  // tests/environments/conversational_tool_use_simulation.test.ts.
  conversational_tool_use_simulation: "conversational_tool_use_simulation: stateful, its verify reads session state that the rollout's tool calls built",
};

describe("reverify of the fixtures' recorded rollouts", () => {
  it.each(withEnvironment)("%s: no reward changed", async (name) => {
    const report = await reverify({ ...files(name), environment: name });
    const records = fixtureRollouts(name);
    expect(report.read).toBe(records.length);
    if (name === "mcqa") {
      // NeMo Gym's own recording is stale here: today's mcqa (theirs and ours) extracts "C" and gives 1 (see tests/environments/mcqa.test.ts).
      expect(report.changed).toEqual([{ line: 3, environment: "mcqa", before: 0, after: 1 }]);
    } else {
      expect(report.changed).toEqual([]);
    }
    if (name === "structured_outputs") {
      // These records come from another dataset than example.jsonl (their schema is only in the prompt): no row gives schema_str.
      expect(report.errors).toHaveLength(records.length);
      expect(report.errors[0]!.message).toContain("schema_str: Invalid input: expected string, received undefined");
      return;
    }
    if (name === "ruler") {
      // NeMo Gym's ruler records keep no task fields and their 262k-token prompts are no example row's (see tests/environments/ruler.test.ts).
      expect(report.errors).toHaveLength(records.length);
      expect(report.errors[0]!.message).toContain("outputs: Invalid input: expected array, received undefined");
      return;
    }
    if (name === "math_advanced_calculations") {
      // NeMo Gym's records keep none of the task fields and match no example row (see tests/environments/math_advanced_calculations.test.ts).
      expect(report.errors).toHaveLength(records.length);
      expect(report.errors[0]!.message).toContain("ground_truth: Invalid input");
      return;
    }
    expect(report.errors).toEqual([]);
    if (SKIPPED[name]) expect(report.skipped).toEqual({ [SKIPPED[name]]: records.length });
    else if (name === "math_with_judge") {
      // The symbolic check decides 3 records; the other 2 would need the judge, which re-verification does not call.
      expect(report.skipped).toEqual({ "math_with_judge: this verify asks the LLM judge, and re-verification calls no model": 2 });
      expect(report.unchanged).toBe(3);
    } else if (name === "abstention") {
      // Only the \boxed{[IDK]} record (the 5th) is decided without the judge.
      expect(report.skipped).toEqual({ "abstention: this verify asks the LLM judge, and re-verification calls no model": 4 });
      expect(report.unchanged).toBe(1);
    } else expect(report.unchanged).toBe(records.length - report.changed.length);
  });

  it("the command: a changed reward is named by line and task, the re-verified records are written, exit 1", async () => {
    const records = fixtureRollouts("string_match");
    // As if the verifier had changed: the recording says 0 where today's code gives 1.
    const edited = records.map((r, i) => (i === 1 ? { ...r, reward: 0 } : r));
    expect(records[1]!.reward).toBe(1);
    const input = path.join(dir, "string_match.jsonl");
    writeFileSync(input, `${edited.map((r) => JSON.stringify(r)).join("\n")}\n`);
    const output = path.join(dir, "reverified.jsonl");
    // NeMo Gym's string_match records drop extraction_mode: --dataset gives it back from the row.
    const result = await edgegym(["reverify", "-i", input, "--dataset", files("string_match").dataset, "-o", output]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`${input}:2: reward 0 -> 1 (string_match, task ${records[1]!._ng_task_index}, rollout ${records[1]!._ng_rollout_index})`);
    expect(result.stdout).toContain("5 read: 5 re-verified (4 unchanged, 1 changed), 0 skipped, 0 error(s)");
    const rescored = readJsonl(output);
    expect(rescored.map((r) => [r.reward, r.previous_reward])).toEqual(records.map((r, i) => [r.reward, i === 1 ? 0 : r.reward]));

    const same = await edgegym(["reverify", "-i", files("string_match").input, "--dataset", files("string_match").dataset]);
    expect(same.code).toBe(0);
    expect(same.stdout).toContain("(5 unchanged, 0 changed)");
  });
});

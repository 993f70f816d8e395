// A mixed job whose results spread, shared by the dashboard's tests: rewards 0, 1 and 2, reward components, and failures.
import { readFileSync } from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "../../local/paths.js";

export const MIXED_ENVIRONMENTS = ["example_multi_step", "example_tool_call_multireward"];

export function exampleRows(name: string): Record<string, unknown>[] {
  return readFileSync(path.join(PROJECT_ROOT, "environments", name, "data", "example.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/**
 * Tasks 0-4: example_multi_step's rows, scored 1 by the simulator, but 3 and 4 expect other values and score 0;
 * tasks 5-9: example_tool_call_multireward's rows, scored 2 (correctness 1 + schema_valid 1 + format 0);
 * task 10: a row without its task fields, which fails at seed (`seed_failed`) on every repeat.
 */
export function mixedJobRows(): string {
  const ref = (name: string) => ({ agent_ref: { name: `${name}_simple_agent` } });
  const multiStep = exampleRows("example_multi_step").map((row, i) => ({
    ...row,
    ...ref("example_multi_step"),
    ...(i >= 3 ? { expected_synonym_values: [1, 2] } : {}),
  }));
  const multiReward = exampleRows("example_tool_call_multireward").map((row) => ({ ...row, ...ref("example_tool_call_multireward") }));
  const broken = { responses_create_params: { input: "a row without its task fields" }, ...ref("example_multi_step") };
  return [...multiStep, ...multiReward, broken].map((row) => JSON.stringify(row)).join("\n");
}

// Every NeMo Gym example row and recorded rollout parses with our schemas, unchanged in what it says.
import { describe, expect, it } from "vitest";
import { DatasetRow, RecordedRollout, issuesOf } from "../../protocol/index.js";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { FIXTURES, fixtureNames, fixtureRollouts, fixtureRows } from "../helpers/fixtures.js";

// bbq: NeMo Gym's file holds judged references without response items (kept as live_reference_rollouts.jsonl, see tests/environments/bbq.test.ts).
const WITHOUT_ROLLOUTS = new Set(["multichallenge", "jailbreak_detection", "genrm_compare", "over_refusal_detection", "bbq"]);

describe("NeMo Gym fixtures", () => {
  const names = fixtureNames();
  it("covers every ported environment of the reference: one fixture folder per environment with example data", () => {
    const ported = readdirSync(new URL("../../environments/", import.meta.url), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(new URL(`../../environments/${entry.name}/data/example.jsonl`, import.meta.url)))
      .map((entry) => entry.name)
      .sort();
    expect(names.length).toBeGreaterThanOrEqual(17);
    expect(names).toEqual(ported);
  });

  for (const name of names) {
    it(`${name}: every example.jsonl row parses as a dataset row, task fields kept`, () => {
      const rows = fixtureRows(name);
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) {
        const parsed = DatasetRow.parse(row);
        for (const key of Object.keys(row)) expect(parsed).toHaveProperty(key);
        expect(parsed.responses_create_params.input).toBeDefined();
      }
    });

    it(`${name}: every example_rollouts.jsonl record parses as a verify response`, () => {
      // NeMo Gym's multichallenge and genrm_compare "rollouts" files are copies of their rows (no response, no reward), jailbreak_detection's and
      // over_refusal_detection's hold five "<PLACEHOLDER ROW>" lines: none of them is copied.
      if (WITHOUT_ROLLOUTS.has(name)) {
        expect(existsSync(path.join(FIXTURES, name, "example_rollouts.jsonl"))).toBe(false);
        return;
      }
      for (const record of fixtureRollouts(name)) {
        const parsed = RecordedRollout.parse(record);
        expect(parsed.reward).toBe(record.reward);
        expect(parsed.response.output.length).toBe((record.response as { output: unknown[] }).output.length);
      }
    });
  }

  it("gives items without a type the type message, as NeMo Gym's rollouts record them", () => {
    const row = DatasetRow.parse({ responses_create_params: { input: [{ role: "user", content: "hi" }] } });
    expect(row.responses_create_params.input).toEqual([{ type: "message", role: "user", content: "hi" }]);
  });

  it("names the field that is wrong", () => {
    const result = DatasetRow.safeParse({ responses_create_params: { input: [{ role: "robot", content: "hi" }] } });
    expect(result.success).toBe(false);
    expect(issuesOf(result.error!)[0]?.path).toEqual(["responses_create_params", "input", 0, "role"]);
  });
});

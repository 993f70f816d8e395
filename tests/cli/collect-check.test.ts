// `collect` checks each row as `dataset validate` does (task fields, tools), skips the bad ones naming file:line: field,
// runs the rest, and exits 2 for the skipped rows unless --allow-skipped.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import { edgegym } from "../helpers/cli.js";
import { fixtureRows, readJsonl } from "../helpers/fixtures.js";
import { startTestLocal } from "../helpers/local.js";

let local: Local;
const dir = mkdtempSync(path.join(tmpdir(), "edgegym-collect-check-"));
beforeAll(async () => {
  local = await startTestLocal({ environments: ["string_match", "example_single_tool_call"] });
});
afterAll(async () => {
  await local?.stop();
});

type Row = Record<string, unknown>;
const agent = (name: string): Row => ({ agent_ref: { type: "responses_api_agents", name: `${name}_simple_agent` } });

function mixedInput(): string {
  const [first, second, third] = fixtureRows("string_match").map((row): Row => ({ ...row, ...agent("string_match") }));
  const { expected_answer: _dropped, ...noAnswer } = second!;
  const weather: Row = { ...fixtureRows("example_single_tool_call")[0]!, ...agent("example_single_tool_call") };
  const params = weather.responses_create_params as Record<string, unknown>;
  const rows = [first, noAnswer, { ...third, case_sensitive: "maybe" }, weather, { ...weather, responses_create_params: { ...params, tools: [] } }];
  const input = path.join(dir, "mixed.jsonl");
  writeFileSync(input, `${rows.map((row) => JSON.stringify(row)).join("\n")}\n`);
  return input;
}

describe("collect checks the environment's task fields and tools before it runs anything", () => {
  it("names each bad row as file:line: field: problem, skips it, runs the rest, exits 2", async () => {
    const input = mixedInput();
    const output = path.join(dir, "out.jsonl");
    const result = await edgegym(["collect", "--url", local.url, "-i", input, "-o", output]);
    expect(result.code).toBe(2);
    const skipped = result.stderr.split("\n").filter((line) => line.startsWith("skipped "));
    expect(skipped).toEqual([
      `skipped ${input}:2: expected_answer: Invalid input: expected string, received undefined`,
      `skipped ${input}:3: case_sensitive: Invalid input: expected boolean, received string`,
      expect.stringMatching(new RegExp(`^skipped ${input}:5: responses_create_params.tools: the row offers no tools`)),
    ]);
    expect(result.stderr).toContain("3 bad row(s) skipped (3 problem(s) above): exit 2 (--allow-skipped exits 0)");
    // Only the good rows ran: none of the bad ones became a run-time failure.
    expect(readJsonl(output).map((r) => r._ng_task_index)).toEqual([0, 3]);
    expect(existsSync(path.join(dir, "out.failures.jsonl"))).toBe(false);
    expect(result.stdout).toContain("string_match");
    expect(result.stdout).toContain("example_single_tool_call");
  });

  it("--allow-skipped: the same report, exit 0", async () => {
    const input = mixedInput();
    const output = path.join(dir, "allowed.jsonl");
    const result = await edgegym(["collect", "--url", local.url, "-i", input, "-o", output, "--allow-skipped"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`skipped ${input}:2: expected_answer: Invalid input: expected string, received undefined`);
    expect(result.stderr).toContain("3 bad row(s) skipped (3 problem(s) above)\n");
    expect(readFileSync(output, "utf8").trim().split("\n")).toHaveLength(2);
  });

  it("--environment checks every row against that environment", async () => {
    const input = path.join(dir, "as-string-match.jsonl");
    const [first] = fixtureRows("string_match");
    writeFileSync(input, `${JSON.stringify(first)}\n${JSON.stringify({ ...first, extraction_mode: "psychic" })}\n`);
    const result = await edgegym(["collect", "--url", local.url, "-e", "string_match", "-i", input, "-o", path.join(dir, "e.jsonl")]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`skipped ${input}:2: extraction_mode: Invalid option`));
  });
});

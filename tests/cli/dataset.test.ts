// Reading a dataset: good rows kept, every bad line reported with file, line and field.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { formatProblem, readDataset } from "../../local/cli/dataset.js";

function file(lines: string[]): string {
  const dir = mkdtempSync(path.join(tmpdir(), "edgegym-dataset-"));
  const name = path.join(dir, "rows.jsonl");
  writeFileSync(name, `${lines.join("\n")}\n`);
  return name;
}

const good = (text: string) => JSON.stringify({ responses_create_params: { input: text }, expected_answer: text.toUpperCase() });

describe("readDataset", () => {
  it("keeps every good row with its task index and reports the bad ones by line and field", async () => {
    const name = file([
      good("a"),
      "{not json",
      JSON.stringify({ expected_answer: "x" }),
      "",
      JSON.stringify({ responses_create_params: { input: [{ role: "robot", content: "hi" }] } }),
      good("b"),
    ]);
    const { entries, problems } = await readDataset(name);
    expect(entries.map((e) => [e.taskIndex, e.line, e.row.expected_answer])).toEqual([
      [0, 1, "A"],
      [4, 6, "B"],
    ]);
    expect(problems.map(formatProblem)).toEqual([
      expect.stringMatching(new RegExp(`^${name}:2: not valid JSON`)),
      `${name}:3: responses_create_params: Invalid input: expected object, received undefined`,
      `${name}:5: responses_create_params.input.0.role: Invalid option: expected one of "user"|"system"|"developer"|"assistant"`,
    ]);
  });

  it("--limit counts rows, not lines", async () => {
    const { entries } = await readDataset(file([good("a"), "", good("b"), good("c")]), 2);
    expect(entries.map((e) => e.row.expected_answer)).toEqual(["A", "B"]);
  });
});

// Preparing data: prompt templates (render, a missing field refused) and collate of several environments into one dataset per split.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { applyPromptConfig, compileTemplate, loadPromptConfig } from "../../local/cli/prompt-config.js";
import { edgegym } from "../helpers/cli.js";
import { FIXTURES, fixtureRows, readJsonl } from "../helpers/fixtures.js";

const dir = mkdtempSync(path.join(tmpdir(), "edgegym-prepare-"));

function writeLines(name: string, rows: unknown[]): string {
  const file = path.join(dir, name);
  writeFileSync(file, `${rows.map((r) => (typeof r === "string" ? r : JSON.stringify(r))).join("\n")}\n`);
  return file;
}

const PROMPT = path.join(dir, "prompt.yaml");
writeFileSync(PROMPT, "system: You answer in one word.\nuser: |-\n  Question: {question}\n  Options: {options[0]} or {options[1]} ({{literal}})\n");

describe("prompt templates (NeMo Gym's prompt_config)", () => {
  it("fills system and user from the row's fields, keeps the other params", () => {
    const config = loadPromptConfig(PROMPT);
    const row = { question: "Sky colour?", options: ["blue", "green"], expected_answer: "blue", responses_create_params: { temperature: 0.2 } };
    const verdict = applyPromptConfig(config, row);
    expect(verdict).toEqual({
      row: {
        ...row,
        responses_create_params: {
          temperature: 0.2,
          input: [
            { role: "system", content: "You answer in one word." },
            { role: "user", content: "Question: Sky colour?\nOptions: blue or green ({literal})" },
          ],
        },
      },
    });
  });

  it("a missing field names the field; a row with its own input is refused; a lone brace is a template error", () => {
    const config = loadPromptConfig(PROMPT);
    expect(applyPromptConfig(config, { options: ["a", "b"] })).toEqual({
      problem: { field: "question", message: "the prompt template's {question} has no value in this row (the row's fields: options)" },
    });
    expect(applyPromptConfig(config, { question: "q", options: ["a"] })).toMatchObject({ problem: { field: "options[1]" } });
    expect(applyPromptConfig(config, { question: "q", options: ["a", "b"], responses_create_params: { input: "hi" } })).toMatchObject({
      problem: { field: "responses_create_params.input" },
    });
    expect(() => compileTemplate("a } b", "t")).toThrow("single '}'");
  });

  it("edgegym dataset render writes the materialized rows, or nothing when a row lacks a field", async () => {
    const good = writeLines("raw.jsonl", [
      { question: "Q1", options: ["a", "b"], expected_answer: "a" },
      { question: "Q2", options: ["c", "d"], expected_answer: "d" },
    ]);
    const out = path.join(dir, "rendered.jsonl");
    const result = await edgegym(["dataset", "render", "-i", good, "--prompt-config", PROMPT, "-o", out]);
    expect(result.code).toBe(0);
    const rows = readJsonl(out);
    expect(rows.map((r) => (r.responses_create_params as { input: { content: string }[] }).input[1]!.content)).toEqual([
      "Question: Q1\nOptions: a or b ({literal})",
      "Question: Q2\nOptions: c or d ({literal})",
    ]);
    expect(rows[0]!.prompt_config_used).toBe(PROMPT);
    expect(rows[1]!.expected_answer).toBe("d");

    const bad = writeLines("raw-bad.jsonl", [{ question: "Q1", options: ["a", "b"] }, { options: ["c", "d"] }]);
    const refused = await edgegym(["dataset", "render", "-i", bad, "--prompt-config", PROMPT, "-o", path.join(dir, "never.jsonl")]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${bad}:2: question: the prompt template's {question} has no value in this row`);
    expect(existsSync(path.join(dir, "never.jsonl"))).toBe(false);
  });
});

describe("edgegym dataset collate", () => {
  it("three environments → one train.jsonl with agent_ref on each row (repeats as NeMo Gym writes them), a validation split, metrics beside", async () => {
    const out = path.join(dir, "collated");
    const mcqa = path.join(FIXTURES, "mcqa", "example.jsonl");
    const weather = path.join(FIXTURES, "example_single_tool_call", "example.jsonl");
    const strings = path.join(FIXTURES, "string_match", "example.jsonl");
    const result = await edgegym([
      "dataset",
      "collate",
      "--dataset",
      `mcqa:train:${mcqa}:2`,
      "--dataset",
      `example_single_tool_call:train:${weather}`,
      "--dataset",
      `string_match:validation:${strings}`,
      "-o",
      out,
    ]);
    expect(result.code).toBe(0);
    const train = readJsonl(path.join(out, "train.jsonl"));
    expect(train).toHaveLength(5 * 2 + 5);
    // NeMo Gym's repeat pattern: abc → aabbcc.
    const mcqaRows = fixtureRows("mcqa");
    expect(train.slice(0, 4).map((r) => r.uuid)).toEqual([mcqaRows[0]!.uuid, mcqaRows[0]!.uuid, mcqaRows[1]!.uuid, mcqaRows[1]!.uuid]);
    expect(train[0]).toEqual({ ...mcqaRows[0], agent_ref: { type: "responses_api_agents", name: "mcqa_simple_agent" } });
    expect(train.slice(10).map((r) => r.agent_ref)).toEqual(Array(5).fill({ type: "responses_api_agents", name: "example_single_tool_call_simple_agent" }));
    const validation = readJsonl(path.join(out, "validation.jsonl"));
    expect(validation.map((r) => (r.agent_ref as { name: string }).name)).toEqual(Array(5).fill("string_match_simple_agent"));

    const metrics = JSON.parse(readFileSync(path.join(out, "train_metrics.json"), "utf8"));
    expect(metrics.type).toBe("train");
    expect(metrics["Number of examples"]).toBe(15);
    expect(metrics.datasets.map((d: Record<string, unknown>) => [d.environment, d.num_repeats, d["Number of examples"]])).toEqual([
      ["mcqa", 2, 10],
      ["example_single_tool_call", 1, 5],
    ]);
    expect(metrics.expected_answer).toEqual({ unique_count: new Set(mcqaRows.map((r) => r.expected_answer)).size, total_count: 10 });
    expect(JSON.parse(readFileSync(path.join(out, "validation_metrics.json"), "utf8"))["Number of examples"]).toBe(5);
    expect(result.stdout).toContain(`train: ${path.join(out, "train.jsonl")} (15 rows)`);
  });

  it("a bad row in any input writes nothing and names the row", async () => {
    const rows = fixtureRows("string_match");
    const { expected_answer: _gone, ...noAnswer } = rows[1]!;
    const bad = writeLines("strings-bad.jsonl", [rows[0], noAnswer]);
    const out = path.join(dir, "never");
    const result = await edgegym(["dataset", "collate", "-d", `string_match:train:${bad}`, "-o", out]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${bad}:2: expected_answer: Invalid input: expected string, received undefined`);
    expect(existsSync(path.join(out, "train.jsonl"))).toBe(false);
    const wrongSplit = await edgegym(["dataset", "collate", "-d", `string_match:test:${bad}`, "-o", out]);
    expect(wrongSplit.stderr).toContain('split "test" is not one of train, validation, example');
  });
});

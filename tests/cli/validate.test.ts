// `edgegym dataset validate`: every fixture dataset passes, bad rows are named by file, line and path, and NeMo Gym's metrics.
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { pythonRound } from "../../local/cli/dataset-metrics.js";
import { validateFile } from "../../local/cli/validate.js";
import { PROJECT_ROOT } from "../../local/paths.js";
import { edgegym } from "../helpers/cli.js";
import { FIXTURES, fixtureNames, fixtureRows } from "../helpers/fixtures.js";

const dir = mkdtempSync(path.join(tmpdir(), "edgegym-validate-"));
const hasEnvironment = (name: string) => existsSync(path.join(PROJECT_ROOT, "environments", name, "index.ts"));

describe("every fixture dataset validates", () => {
  it.each(fixtureNames())("%s", async (name) => {
    const problems: string[] = [];
    const file = path.join(FIXTURES, name, "example.jsonl");
    const environment = hasEnvironment(name) ? name : undefined;
    const result = await validateFile(file, { environment, onProblem: (p) => problems.push(`${p.line}: ${p.field}: ${p.message}`) });
    expect(problems).toEqual([]);
    expect(result.badRows).toBe(0);
    expect(result.metrics.examples).toBe(fixtureRows(name).length);
    if (environment) expect(result.environments).toEqual({ [name]: result.rows });
  });
});

describe("NeMo Gym's dataset metrics", () => {
  // The figures NeMo Gym itself wrote for this dataset (resources_servers/structured_outputs/data/example_metrics.json).
  it("structured_outputs: tools, json-dumped words, turns, temperature, numeric and string task fields", async () => {
    const result = await validateFile(path.join(FIXTURES, "structured_outputs", "example.jsonl"), { onProblem: () => {} });
    const metrics = result.metrics.toJSON();
    expect(metrics["Number of examples"]).toBe(5);
    expect(metrics["Number of tools"]).toEqual({ "Total # non-null values": 5, Average: 12.4, Min: 1, Max: 17, "Standard deviation": 6.5 });
    expect(metrics["Json-dumped number of words (proxy for token count)"]).toEqual({
      "Total # non-null values": 5,
      Average: 3258.4,
      Min: 2248,
      Max: 5145,
      "Standard deviation": 1122.75,
    });
    expect(metrics["Number of turns"]).toEqual({ "Total # non-null values": 5, Average: 1, Min: 1, Max: 1, "Standard deviation": 0 });
    expect(metrics.Temperature).toEqual({ "Total # non-null values": 0, Average: 0, Min: 0, Max: 0, "Standard deviation": 0 });
    expect(metrics.parallel_tool_calls).toEqual({ "Total # non-null values": 5, Average: 0.6, Min: 0, Max: 1, "Standard deviation": 0.548 });
    expect(metrics.num_distractors).toEqual({ "Total # non-null values": 5, Average: 14, Min: 13, Max: 16, "Standard deviation": 1.41 });
    expect(metrics.source_format).toEqual({ unique_count: 4, total_count: 5 });
    expect(metrics.tool_payload_key).toEqual({ unique_count: 2, total_count: 4 });
  });

  it("a string input is one turn; list fields count each item; booleans count as 0/1", async () => {
    const file = path.join(dir, "small.jsonl");
    const rows = [
      { responses_create_params: { input: "hi there", temperature: 0.5 }, tags: ["a", "b"], ok: true },
      {
        responses_create_params: {
          input: [
            { role: "user", content: "x" },
            { role: "assistant", content: "y" },
            { role: "user", content: "z" },
          ],
          tools: [],
        },
        tags: ["a"],
        ok: false,
      },
    ];
    writeFileSync(file, `${rows.map((r) => JSON.stringify(r)).join("\n")}\n`);
    const metrics = (await validateFile(file, { onProblem: () => {} })).metrics.toJSON();
    expect(metrics["Number of turns"]).toMatchObject({ "Total # non-null values": 2, Average: 1.5, Min: 1, Max: 2 });
    expect(metrics["Number of tools"]).toMatchObject({ "Total # non-null values": 1, Average: 0 });
    expect(metrics.Temperature).toMatchObject({ "Total # non-null values": 1, Average: 0.5 });
    // json.dumps({"input": "hi there", "temperature": 0.5}) → {"input": "hi there", "temperature": 0.5}: 5 words.
    expect(metrics["Json-dumped number of words (proxy for token count)"]).toMatchObject({ Min: 5 });
    expect(metrics.tags).toEqual({ unique_count: 2, total_count: 3 });
    expect(metrics.ok).toMatchObject({ "Total # non-null values": 2, Average: 0.5 });
  });

  it("rounds as Python's round does: an exact tie goes to the even digit", () => {
    expect(pythonRound(0.0625, 3)).toBe(0.062);
    expect(pythonRound(0.125, 2)).toBe(0.12);
    expect(pythonRound(2.675, 2)).toBe(2.67); // 2.675 is 2.67499999… in binary
    expect(pythonRound(1122.7466, 2)).toBe(1122.75);
    expect(pythonRound(-0.0625, 3)).toBe(-0.062);
  });
});

describe("edgegym dataset validate (the command)", () => {
  it("names every bad row as file:line: path: problem, prints the metrics of the good ones, exits 1", async () => {
    const [first, second] = fixtureRows("string_match");
    const { expected_answer: _dropped, ...noAnswer } = second!;
    const weather = fixtureRows("example_single_tool_call")[0]!;
    const params = weather.responses_create_params as { tools: Record<string, unknown>[] };
    const wrongTool = { ...weather, responses_create_params: { ...params, tools: [{ ...params.tools[0], name: "get_time" }] } };
    const file = path.join(dir, "bad.jsonl");
    const lines = [
      JSON.stringify(first),
      "{not json",
      JSON.stringify(noAnswer),
      "",
      JSON.stringify({ expected_answer: "x" }),
      JSON.stringify({ ...first, case_sensitive: "maybe" }),
      JSON.stringify({ ...wrongTool, agent_ref: { name: "example_single_tool_call_simple_agent" } }),
    ];
    writeFileSync(file, `${lines.join("\n")}\n`);
    const result = await edgegym(["dataset", "validate", file]);
    expect(result.code).toBe(1);
    const reported = result.stderr.trim().split("\n");
    expect(reported).toEqual([
      expect.stringMatching(new RegExp(`^${file}:2: not valid JSON`)),
      `${file}:5: responses_create_params: Invalid input: expected object, received undefined`,
      `${file}:7: responses_create_params.tools.0.name: "get_time" is not a tool of example_single_tool_call (its tools: get_weather)`,
      "3 bad row(s)",
    ]);
    // Without --environment, string_match rows (no agent_ref) are checked against the protocol only.
    expect(result.stdout).toContain(`${file}: 6 row(s), 3 bad; checked 3 against the protocol only`);
    expect(result.stdout).toContain('"Number of examples": 3');

    const strict = await edgegym(["dataset", "validate", file, "--environment", "string_match"]);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain(`${file}:3: expected_answer: Invalid input: expected string, received undefined`);
    expect(strict.stderr).toContain(`${file}:6: case_sensitive:`);
  });

  it("a good file exits 0", async () => {
    const result = await edgegym(["dataset", "validate", path.join(FIXTURES, "mcqa", "example.jsonl"), "-e", "mcqa"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain("5 row(s), 0 bad; checked 5 against mcqa");
  });
});

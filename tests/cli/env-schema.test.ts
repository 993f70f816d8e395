// `edgegym env schema`: an environment's tools as a row offers them (derived from zod), a skeleton row, and `dataset
// validate` refusing a row with no tools or with a tool's parameters mistyped.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { edgegym } from "../helpers/cli.js";
import { fixtureRows } from "../helpers/fixtures.js";

const dir = mkdtempSync(path.join(tmpdir(), "edgegym-env-schema-"));
type Params = { input: unknown; tools: { name: string; parameters: Record<string, unknown> }[] };
const paramsOf = (row: Record<string, unknown>) => row.responses_create_params as Params;

describe("edgegym env schema", () => {
  it("prints the tools exactly as NeMo Gym's rows offer them", async () => {
    const result = await edgegym(["env", "schema", "example_single_tool_call"]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(paramsOf(fixtureRows("example_single_tool_call")[0]!).tools);
    // 27 tools, each one's parameters as the bundled rows carry them.
    const workplace = await edgegym(["env", "schema", "workplace_assistant"]);
    const tools = JSON.parse(workplace.stdout) as Params["tools"];
    expect(tools.map((t) => t.name)).toEqual(paramsOf(fixtureRows("workplace_assistant")[0]!).tools.map((t) => t.name));
    expect(tools.map((t) => t.parameters)).toEqual(paramsOf(fixtureRows("workplace_assistant")[0]!).tools.map((t) => t.parameters));
  });

  it("says so for an environment without tools of its own", async () => {
    const result = await edgegym(["env", "schema", "xlam_fc"]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([]);
    expect(result.stderr).toContain("xlam_fc serves no tools of its own");
  });

  it("--row: one JSONL line with the tools and each task field's type; filled in, it validates", async () => {
    const result = await edgegym(["env", "schema", "example_session_state_mgmt", "--row"]);
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split("\n")).toHaveLength(1);
    const row = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(row).toMatchObject({ initial_count: "<integer, optional>", expected_count: "<integer, optional>" });
    expect(paramsOf(row).tools.map((t) => t.name)).toEqual(["increment_counter", "get_counter_value"]);
    expect(paramsOf(row).input).toEqual([{ role: "user", content: "<the prompt>" }]);

    const math = JSON.parse((await edgegym(["env", "schema", "math_with_judge", "--row"])).stdout) as Record<string, unknown>;
    expect(math).toMatchObject({ question: "<string>", expected_answer: "<string>" });
    expect(paramsOf(math).tools).toBeUndefined();

    const filled = path.join(dir, "filled.jsonl");
    writeFileSync(filled, `${JSON.stringify({ ...row, initial_count: 2, expected_count: 3 })}\n`);
    const checked = await edgegym(["dataset", "validate", filled, "-e", "example_session_state_mgmt"]);
    expect(checked.stderr).toBe("");
    expect(checked.code).toBe(0);
  });

  it("an unknown name: exit 1, one line naming the environments there are", async () => {
    const result = await edgegym(["env", "schema", "weather"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr.trim()).toMatch(
      /^edgegym: no environment "weather" \(known: abstention, arc_agi, .*example_single_tool_call, .*over_refusal_detection, .*xlam_fc, xstest\)$/,
    );
  });
});

describe("dataset validate: the tools a row offers", () => {
  it("refuses no tools for an environment that serves some, and parameters mistyped by name, type or requiredness", async () => {
    const weather = fixtureRows("example_single_tool_call")[0]!;
    const params = paramsOf(weather);
    const tool = params.tools[0]!;
    const withParameters = (parameters: Record<string, unknown>) => ({ ...weather, responses_create_params: { ...params, tools: [{ ...tool, parameters }] } });
    const counter = fixtureRows("example_session_state_mgmt")[0]!;
    const counterTools = paramsOf(counter).tools;
    const stringCount = counterTools.map((t) =>
      t.name === "increment_counter" ? { ...t, parameters: { ...t.parameters, properties: { count: { type: "string" } } } } : t,
    );
    const rows = [
      weather,
      { ...weather, responses_create_params: { input: params.input } },
      { ...weather, responses_create_params: { ...params, tools: [] } },
      withParameters({ type: "object", properties: { cty: { type: "string" } }, required: ["cty"], additionalProperties: false }),
      { ...counter, responses_create_params: { ...paramsOf(counter), tools: stringCount } },
      withParameters({ type: "object", properties: { city: { type: "string" } }, required: [], additionalProperties: false }),
      // Titles and descriptions (NeMo Gym's Pydantic schemas carry them) are the row's own: not a difference.
      withParameters({ type: "object", properties: { city: { type: "string", title: "City", description: "where" } }, required: ["city"] }),
    ];
    const file = path.join(dir, "tools.jsonl");
    writeFileSync(file, `${rows.map((r) => JSON.stringify(r)).join("\n")}\n`);
    const result = await edgegym(["dataset", "validate", file, "-e", "example_single_tool_call"]);
    expect(result.code).toBe(1);
    const none = `responses_create_params.tools: the row offers no tools, so the model cannot call example_single_tool_call's (get_weather): \`edgegym env schema example_single_tool_call\` prints them as a row offers them`;
    expect(result.stderr.trim().split("\n")).toEqual([
      `${file}:2: ${none}`,
      `${file}:3: ${none}`,
      `${file}:4: responses_create_params.tools.0.parameters.properties.cty: get_weather has no parameter "cty" (its parameters: city)`,
      `${file}:4: responses_create_params.tools.0.parameters.properties: "city" is missing: get_weather takes it`,
      `${file}:4: responses_create_params.tools.0.parameters.required: [cty], but get_weather requires [city]`,
      `${file}:5: responses_create_params.tools.0.name: "increment_counter" is not a tool of example_single_tool_call (its tools: get_weather)`,
      `${file}:5: responses_create_params.tools.1.name: "get_counter_value" is not a tool of example_single_tool_call (its tools: get_weather)`,
      `${file}:6: responses_create_params.tools.0.parameters.required: [], but get_weather requires [city]`,
      "5 bad row(s)",
    ]);

    const counterFile = path.join(dir, "counter.jsonl");
    writeFileSync(counterFile, `${JSON.stringify(rows[4])}\n`);
    const typed = await edgegym(["dataset", "validate", counterFile, "-e", "example_session_state_mgmt"]);
    expect(typed.code).toBe(1);
    expect(typed.stderr).toContain(
      `${counterFile}:1: responses_create_params.tools.0.parameters.properties.count.type: string, but increment_counter's "count" is integer`,
    );
  });
});

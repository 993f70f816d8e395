// structured_outputs: parity with NeMo Gym's recorded rollouts (in workerd), NeMo Gym's own tests, and format edge cases.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import structuredOutputs from "../../environments/structured_outputs/index.js";
import { evaluateText } from "../../environments/structured_outputs/evaluate.js";
import { computeMetrics } from "../../environments/structured_outputs/metrics.js";
import { noState, perform } from "../../environments/sdk/perform.js";
import { fixtureRollouts, fixtureRows } from "../helpers/fixtures.js";
import { postJson, startTestLocal } from "../helpers/local.js";

const NAME = "structured_outputs";
let local: Local;
beforeAll(async () => {
  local = await startTestLocal({ environments: [NAME] });
});
afterAll(async () => {
  await local?.stop();
});

/** The verify response fields these tests read. */
type Verdict = { reward: number; error_type: string | null; error_message: string | null } & Record<string, unknown>;
const verifyInWorkerd = async (body: unknown): Promise<{ status: number; body: Verdict }> => postJson(`${local.url}/v1/environments/${NAME}/verify`, body);
const verifyInNode = async (body: unknown): Promise<Verdict> => {
  const outcome = await perform(structuredOutputs, { kind: "verify" }, body, { sessionId: "t", state: noState, signal: new AbortController().signal });
  expect(outcome.status).toBe(200);
  return outcome.body as Verdict;
};

const response = (output: unknown[]) => ({
  id: "resp",
  object: "response",
  created_at: 0,
  model: "m",
  output,
  parallel_tool_calls: false,
  tool_choice: "none",
  tools: [],
});
const message = (text: string) => ({
  id: "msg",
  type: "message",
  role: "assistant",
  status: "completed",
  content: [{ type: "output_text", text, annotations: [] }],
});
const call = (name: string, args: string) => ({ type: "function_call", call_id: "call_1", name, arguments: args });
const textRequest = (schema: unknown, schemaType: string, text: string) => ({
  responses_create_params: { input: [] },
  response: response([message(text)]),
  schema_str: typeof schema === "string" ? schema : JSON.stringify(schema),
  schema_type: schemaType,
});

/**
 * The JSON schema a recorded prompt states: the largest balanced {...} in the user's text that parses as JSON.
 * NeMo Gym's records keep neither the row's schema_str nor a row in today's example.jsonl (they were recorded
 * from older text-mode rows), but the prompt carries the schema the model was asked to follow — sometimes only its
 * properties map, which is then wrapped as an object schema (NeMo Gym makes every property required and closes
 * every object anyway, so the wrapping adds nothing it would not).
 */
function schemaFromPrompt(record: Record<string, unknown>): Record<string, unknown> | undefined {
  const text = (record.responses_create_params as { input: { content: string }[] }).input.map((m) => m.content).join("\n");
  let best: Record<string, unknown> | undefined;
  let bestLength = 0;
  for (let start = text.indexOf("{"); start >= 0; start = text.indexOf("{", start + 1)) {
    let depth = 0;
    let inString = false;
    for (let i = start; i < text.length; i++) {
      const ch = text[i];
      if (inString) {
        if (ch === "\\") i++;
        else if (ch === '"') inString = false;
      } else if (ch === '"') inString = true;
      else if (ch === "{") depth++;
      else if (ch === "}" && --depth === 0) {
        if (i + 1 - start > bestLength) {
          try {
            const value: unknown = JSON.parse(text.slice(start, i + 1));
            if (value && typeof value === "object" && !Array.isArray(value)) {
              best = "type" in value || "properties" in value ? (value as Record<string, unknown>) : { type: "object", properties: value };
              bestLength = i + 1 - start;
            }
          } catch {
            // Not JSON: keep looking.
          }
        }
        break;
      }
    }
  }
  return best;
}

describe("parity: NeMo Gym's recorded rollouts re-verified in workerd", () => {
  const records = fixtureRollouts(NAME);
  it.each(records.map((record, i) => [i, record] as const))(
    "recorded rollout %i: same reward as NeMo Gym, with the schema its prompt states",
    async (_i, record) => {
      const schema = schemaFromPrompt(record);
      expect(schema, "the prompt states a JSON schema").toBeDefined();
      const { reward, ...recorded } = record;
      const answer = await verifyInWorkerd({ ...recorded, schema_str: JSON.stringify(schema), schema_type: "json" });
      expect(answer.status).toBe(200);
      expect(answer.body.reward).toBe(reward);
      // Four answers are ```json fenced: NeMo Gym never strips fences, so they do not parse.
      expect(answer.body.error_type).toBe(reward === 1 ? null : "parse_error");
    },
  );
});

describe("NeMo Gym's tests/test_app.py, ported", () => {
  const tool = async (output: unknown[], extra: Record<string, unknown> = {}) =>
    verifyInNode({
      responses_create_params: { input: [] },
      response: response(output),
      schema_str: JSON.stringify({ type: "object", properties: { name: { type: "string" }, age: { type: "integer" } } }),
      response_mode: "tool_call",
      tool_name: "extract_record",
      tool_schema_mode: "direct",
      tool_choice: "auto",
      parallel_tool_calls: true,
      ...extra,
    });
  const valid = JSON.stringify({ name: "Alice", age: 30 });

  it("test_verify_tool_call_modes", async () => {
    expect(await tool([call("extract_record", valid)])).toMatchObject({ reward: 1, error_type: null });
    const extraction = { tool_schema_mode: "extraction_wrapper", tool_payload_key: "extraction" };
    expect(await tool([call("extract_record", JSON.stringify({ extraction: { name: "Alice", age: 30 } }))], extraction)).toMatchObject({
      reward: 1,
      error_type: null,
    });
    const summary = { tool_schema_mode: "random_wrapper", tool_payload_key: "summary" };
    expect(await tool([call("extract_record", JSON.stringify({ summary: { name: "Alice", age: 30 } }))], summary)).toMatchObject({
      reward: 1,
      error_type: null,
    });
    expect(await tool([call("distractor_tool", valid)])).toMatchObject({ reward: 0, error_type: "wrong_tool_name" });
    expect(await tool([message("I cannot extract that.")])).toMatchObject({ reward: 0, error_type: "missing_tool_call" });
    expect(await tool([call("extract_record", valid), call("distractor_tool", valid)])).toMatchObject({ reward: 0, error_type: "multiple_tool_calls" });
    expect(await tool([call("extract_record", '{"name":')])).toMatchObject({ reward: 0, error_type: "tool_arguments_parse_error" });
    expect(await tool([call("extract_record", JSON.stringify({ result: { name: "Alice", age: 30 } }))], extraction)).toMatchObject({
      reward: 0,
      error_type: "missing_tool_payload_key",
    });
    expect(await tool([call("extract_record", JSON.stringify({ name: "Alice", age: "thirty" }))])).toMatchObject({ reward: 0, error_type: "validation_error" });
  });

  const studySchema = {
    type: "object",
    properties: {
      studentId: { type: "string" },
      examSubject: { type: "string" },
      plannedStudyHours: { type: "integer" },
      isFullTimeStudent: { type: "boolean" },
      studyMaterials: {
        type: "object",
        properties: {
          textbooks: { type: "array", items: { type: "string" } },
          onlineResources: { type: "array", items: { type: "string" } },
          practiceExams: {
            type: "object",
            properties: { completedCount: { type: "integer" }, averageScore: { type: "number" }, mostRecentDate: { type: "string", format: "date" } },
            required: ["completedCount", "averageScore", "mostRecentDate"],
            additionalProperties: false,
          },
        },
        required: ["textbooks", "onlineResources", "practiceExams"],
        additionalProperties: false,
      },
      studySchedule: {
        type: "object",
        properties: {
          weeklyHours: { type: "integer" },
          sessionsPerWeek: { type: "integer" },
          preferredTimeOfDay: { type: "string", enum: ["morning", "afternoon", "evening"] },
          studyDays: { type: "array", items: { type: "string" } },
          breakSchedule: {
            type: "object",
            properties: { shortBreakMinutes: { type: "integer" }, longBreakMinutes: { type: "integer" }, breakFrequencyMinutes: { type: "integer" } },
            required: ["shortBreakMinutes", "longBreakMinutes", "breakFrequencyMinutes"],
            additionalProperties: false,
          },
        },
        required: ["weeklyHours", "sessionsPerWeek", "preferredTimeOfDay", "studyDays", "breakSchedule"],
        additionalProperties: false,
      },
      preparationStatus: { type: "string", enum: ["not_started", "in_progress", "review_only", "ready"] },
    },
  };
  const studyAnswer = {
    studentId: "STU12345",
    examSubject: "Calculus II",
    plannedStudyHours: 120,
    isFullTimeStudent: true,
    studyMaterials: {
      textbooks: ["Calculus: Early Transcendentals", "Schaum\u2019s Outline of Calculus", "The Humongous Book of Calculus Problems"],
      onlineResources: ["Khan Academy", "Paul\u2019s Online Math Notes", "Coursera Calculus Course"],
      practiceExams: { completedCount: 8, averageScore: 87.5, mostRecentDate: "2024-05-10" },
    },
    studySchedule: {
      weeklyHours: 15,
      sessionsPerWeek: 5,
      preferredTimeOfDay: "evening",
      studyDays: ["Monday", "Wednesday", "Friday", "Saturday", "Sunday"],
      breakSchedule: { shortBreakMinutes: 10, longBreakMinutes: 25, breakFrequencyMinutes: 50 },
    },
    preparationStatus: "in_progress",
  };
  const reward = async (schemaType: string, text: string, schema: unknown = studySchema) => (await verifyInNode(textRequest(schema, schemaType, text))).reward;

  it("test_verify_json", async () => {
    const edited = (edit: (o: typeof studyAnswer & Record<string, unknown>) => void) => {
      const copy = structuredClone(studyAnswer) as typeof studyAnswer & Record<string, unknown>;
      edit(copy);
      return JSON.stringify(copy);
    };
    expect(await reward("json", JSON.stringify(studyAnswer))).toBe(1);
    expect(await reward("json", '{"studentId":"STU12345", ')).toBe(0);
    expect(
      await reward(
        "json",
        edited((o) => Reflect.deleteProperty(o, "studentId")),
      ),
    ).toBe(0);
    expect(
      await reward(
        "json",
        edited((o) => (o.extraField = "some value")),
      ),
    ).toBe(0);
    expect(
      await reward(
        "json",
        edited((o) => Reflect.set(o, "plannedStudyHours", "one hundred")),
      ),
    ).toBe(0);
    expect(
      await reward(
        "json",
        edited((o) => Reflect.set(o.studyMaterials.practiceExams, "extraNestedField", "bad value")),
      ),
    ).toBe(0);
  });

  // yaml.dump(test_completion_obj, default_flow_style=False), as NeMo Gym's test builds it.
  const validYaml =
    "examSubject: Calculus II\nisFullTimeStudent: true\nplannedStudyHours: 120\npreparationStatus: in_progress\nstudentId: STU12345\nstudyMaterials:\n  onlineResources:\n  - Khan Academy\n  - Coursera Calculus Course\n  practiceExams:\n    averageScore: 87.5\n    completedCount: 8\n    mostRecentDate: '2024-05-10'\n  textbooks:\n  - 'Calculus: Early Transcendentals'\n  - \"Schaum\\u2019s Outline of Calculus\"\nstudySchedule:\n  breakSchedule:\n    breakFrequencyMinutes: 50\n    longBreakMinutes: 25\n    shortBreakMinutes: 10\n  preferredTimeOfDay: evening\n  sessionsPerWeek: 5\n  studyDays:\n  - Monday\n  - Wednesday\n  - Friday\n  weeklyHours: 15\n";
  it("test_verify_yaml", async () => {
    expect(await reward("yaml", validYaml)).toBe(1);
    expect(await reward("yaml", "key: value\n  bad_indent: oops\n notvalid")).toBe(0);
    expect(await reward("yaml", validYaml.replace("studentId: STU12345\n", ""))).toBe(0);
    expect(await reward("yaml", `${validYaml}extraField: some value\n`)).toBe(0);
    expect(await reward("yaml", validYaml.replace("plannedStudyHours: 120", "plannedStudyHours: one hundred"))).toBe(0);
    expect(await reward("yaml", validYaml.replace("    completedCount: 8\n", "    completedCount: 8\n    extraNestedField: bad value\n"))).toBe(0);
  });

  const xmlSchema = {
    type: "object",
    properties: {
      root: {
        type: "object",
        properties: {
          name: { type: "string" },
          age: { type: "integer" },
          score: { type: "number" },
          active: { type: "boolean" },
          tag: { type: "array", items: { type: "string" } },
        },
      },
    },
  };
  // xmltodict.unparse({"root": {...}}) of NeMo Gym's test objects.
  const declaration = '<?xml version="1.0" encoding="utf-8"?>\n';
  const validXml = `${declaration}<root><name>Alice</name><age>25</age><score>95.5</score><active>true</active><tag>python</tag><tag>ml</tag></root>`;
  it("test_verify_xml (coercion on by default, and off)", async () => {
    expect(await reward("xml", validXml, xmlSchema)).toBe(1);
    expect(await reward("xml", "<root><name>Alice</name><age>25", xmlSchema)).toBe(0);
    expect(await reward("xml", validXml.replace("<age>25</age>", ""), xmlSchema)).toBe(0);
    expect(await reward("xml", validXml.replace("</root>", "<extraField>bad</extraField></root>"), xmlSchema)).toBe(0);
    // xml_coerce_types=False is NeMo Gym server config; here it is an option of the evaluator.
    expect(evaluateText("xml", JSON.stringify(xmlSchema), validXml, { xmlCoerceTypes: false }).reward).toBe(0);
  });

  const tomlSchema = {
    type: "object",
    properties: {
      name: { type: "string" },
      version: { type: "string" },
      buildNumber: { type: "integer" },
      isStable: { type: "boolean" },
      score: { type: "number" },
      settings: {
        type: "object",
        properties: { debug: { type: "boolean" }, timeout: { type: "integer" }, logLevel: { type: "string" } },
        required: ["debug", "timeout", "logLevel"],
        additionalProperties: false,
      },
      tags: { type: "array", items: { type: "string" } },
    },
  };
  const validToml =
    'name = "my-project"\nversion = "1.2.3"\nbuildNumber = 42\nisStable = true\nscore = 98.5\ntags = ["python", "ml"]\n\n[settings]\ndebug = false\ntimeout = 30\nlogLevel = "info"\n';
  it("test_verify_toml", async () => {
    const toml = async (text: string) => verifyInNode(textRequest(tomlSchema, "toml", text));
    expect((await toml(validToml)).reward).toBe(1);
    expect(await toml('name = "hello\n[invalid')).toMatchObject({ reward: 0, error_type: "parse_error" });
    expect(await toml(validToml.replace('name = "my-project"\n', ""))).toMatchObject({ reward: 0, error_type: "validation_error" });
    expect(await toml(validToml.replace("\n\n[settings]", '\nextraField = "some value"\n\n[settings]'))).toMatchObject({
      reward: 0,
      error_type: "validation_error",
    });
    expect(await toml(validToml.replace("buildNumber = 42", 'buildNumber = "forty-two"'))).toMatchObject({ reward: 0, error_type: "validation_error" });
    expect(await toml(`${validToml}extraNestedField = "bad value"\n`)).toMatchObject({ reward: 0, error_type: "validation_error" });
  });

  it("test_verify_csv", async () => {
    const schema = {
      type: "array",
      items: { type: "object", properties: { name: { type: "string" }, age: { type: "integer" }, score: { type: "number" }, active: { type: "boolean" } } },
    };
    const csv = async (text: string, s: unknown = schema) => verifyInNode(textRequest(s, "csv", text));
    expect((await csv("name,age,score,active\nAlice,30,95.5,true\nBob,25,88.0,false\n")).reward).toBe(1);
    expect(await csv("   ")).toMatchObject({ reward: 0, error_type: "empty_response" });
    expect(await csv("age,score,active\n30,95.5,true\n25,88.0,false\n")).toMatchObject({ reward: 0, error_type: "validation_error" });
    expect(await csv("name,age,score,active,bonus\nAlice,30,95.5,true,extra\nBob,25,88.0,false,extra\n")).toMatchObject({
      reward: 0,
      error_type: "validation_error",
    });
    expect(await csv("name,age,score,active\nAlice,not_a_number,95.5,true\n")).toMatchObject({ reward: 0, error_type: "validation_error" });
    const nullable = { type: "array", items: { type: "object", properties: { name: { type: "string" }, age: { type: ["integer", "null"] } } } };
    expect((await csv("name,age\nAlice,\nBob,25\n", nullable)).reward).toBe(1);
  });
});

describe("tool-call (v4) rows of example.jsonl, in workerd", () => {
  const rows = fixtureRows(NAME);
  const verifyRow = async (index: number, output: unknown[]) => {
    const { responses_create_params, ...task } = rows[index]!;
    return (await verifyInWorkerd({ responses_create_params, ...task, response: response(output) })).body;
  };
  it("the expected tool with a payload valid for its array schema scores 1; the echoed row fields come back", async () => {
    // Row 1: summary_tool_1 wraps an array schema under "extraction"; an empty list is a valid array.
    const answer = await verifyRow(1, [call("summary_tool_1", '{"extraction": []}')]);
    expect(answer).toMatchObject({ reward: 1, error_type: null, error_message: null, tool_name: "summary_tool_1", num_tools: 1, response_mode: "tool_call" });
  });
  it("a distractor tool, a missing wrapper key and a wrong payload each score 0 with NeMo Gym's error_type", async () => {
    expect(await verifyRow(4, [call("response_tool_1", '{"extraction": []}')])).toMatchObject({ reward: 0, error_type: "wrong_tool_name" });
    expect(await verifyRow(4, [call("response_tool_9", "[]")])).toMatchObject({ reward: 0, error_type: "missing_tool_payload_key" });
    expect(await verifyRow(2, [call("summary_tool_10", '{"event_name": "x"}')])).toMatchObject({ reward: 0, error_type: "validation_error" });
    expect(await verifyRow(0, [message("The village is Dizer Kola.")])).toMatchObject({ reward: 0, error_type: "missing_tool_call" });
  });
  it("a response error is an api_error, printed as pydantic prints the error object", async () => {
    const { responses_create_params, ...task } = rows[0]!;
    const answer = await verifyInWorkerd({ responses_create_params, ...task, response: { ...response([]), error: { code: "server_error", message: "boom" } } });
    expect(answer.body).toMatchObject({ reward: 0, error_type: "api_error", error_message: "code='server_error' message='boom'" });
  });
});

describe("format edge cases, in workerd (expected rewards and error types computed by NeMo Gym's own app.py)", () => {
  // [case, schema_type, schema_str, answer text, NeMo Gym's reward, NeMo Gym's error_type]
  const CASES: [string, string, string, string, number, string | null][] = [
    [
      "json: a fenced block is not JSON (no stripping)",
      "json",
      '{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"}}}',
      '```json\n{"name": "a", "age": 3}\n```',
      0.0,
      "parse_error",
    ],
    [
      "json: trailing prose is Extra data",
      "json",
      '{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"}}}',
      '{"name": "a", "age": 3}\nHope this helps!',
      0.0,
      "parse_error",
    ],
    [
      "json: surrounding whitespace is fine",
      "json",
      '{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"}}}',
      '  \n{"name": "a", "age": 3}  \n',
      1.0,
      null,
    ],
    [
      "json: 3.0 is an integer",
      "json",
      '{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"}}}',
      '{"name": "a", "age": 3.0}',
      1.0,
      null,
    ],
    [
      "json: true is not an integer",
      "json",
      '{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"}}}',
      '{"name": "a", "age": true}',
      0.0,
      "validation_error",
    ],
    [
      "json: NaN parses (Python json) and is a number, not an integer",
      "json",
      '{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"}}}',
      '{"name": "a", "age": NaN}',
      0.0,
      "validation_error",
    ],
    [
      "json: trailing comma",
      "json",
      '{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"}}}',
      '{"name": "a", "age": 3,}',
      0.0,
      "parse_error",
    ],
    [
      "json: single quotes",
      "json",
      '{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"}}}',
      "{'name': 'a', 'age': 3}",
      0.0,
      "parse_error",
    ],
    [
      "json: a repeated key keeps the last value",
      "json",
      '{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"}}}',
      '{"name": "a", "age": "x", "age": 4}',
      1.0,
      null,
    ],
    [
      "json: BOM",
      "json",
      '{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"}}}',
      '\ufeff{"name": "a", "age": 3}',
      0.0,
      "parse_error",
    ],
    [
      "json: schema properties are all required",
      "json",
      '{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"}}}',
      '{"name": "a"}',
      0.0,
      "validation_error",
    ],
    [
      "json: no extra properties",
      "json",
      '{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"}}}',
      '{"name": "a", "age": 3, "x": 1}',
      0.0,
      "validation_error",
    ],
    ["json: enum 1 does not accept true", "json", '{"type":"object","properties":{"e":{"enum":[1,"x"]}}}', '{"e": true}', 0.0, "validation_error"],
    ["json: enum 1 accepts 1.0", "json", '{"type":"object","properties":{"e":{"enum":[1,"x"]}}}', '{"e": 1.0}', 1.0, null],
    ["json: format is not asserted", "json", '{"type":"object","properties":{"p":{"type":"string","format":"email"}}}', '{"p": "not an email"}', 1.0, null],
    [
      "json: minLength counts code points",
      "json",
      '{"type":"object","properties":{"p":{"type":"string","minLength":2,"maxLength":2}}}',
      '{"p": "😀😀"}',
      1.0,
      null,
    ],
    [
      "json: multipleOf 0.01 rejects 19.99 (float division)",
      "json",
      '{"type":"object","properties":{"p":{"type":"number","multipleOf":0.01}}}',
      '{"p": 19.99}',
      0.0,
      "validation_error",
    ],
    [
      "json: Python's $ also matches before a final newline",
      "json",
      '{"type":"object","properties":{"p":{"type":"string","pattern":"^\\\\d{3}$"}}}',
      '{"p": "123\\n"}',
      1.0,
      null,
    ],
    [
      "json: Python's \\d is any Unicode digit",
      "json",
      '{"type":"object","properties":{"p":{"type":"string","pattern":"^\\\\d+$"}}}',
      '{"p": "١٢٣"}',
      1.0,
      null,
    ],
    ["json: Python's named groups", "json", '{"type":"object","properties":{"p":{"type":"string","pattern":"^(?P<a>x)(?P=a)$"}}}', '{"p": "xx"}', 1.0, null],
    [
      "json: a possessive quantifier never gives back (Python 3.11+)",
      "json",
      '{"type":"object","properties":{"p":{"type":"string","pattern":"^a*+a$"}}}',
      '{"p": "aaa"}',
      0.0,
      "validation_error",
    ],
    [
      "json: an invalid pattern fails the schema check",
      "json",
      '{"type":"object","properties":{"p":{"type":"string","pattern":"("}}}',
      '{"p": "x"}',
      0.0,
      "validation_error",
    ],
    [
      "json: an unknown escape is a bad pattern",
      "json",
      '{"type":"object","properties":{"p":{"type":"string","pattern":"^\\\\e$"}}}',
      '{"p": "e"}',
      0.0,
      "validation_error",
    ],
    ["json: uniqueItems tells 1 from true", "json", '{"type":"object","properties":{"p":{"type":"array","uniqueItems":true}}}', '{"p": [1, true]}', 1.0, null],
    [
      "json: anyOf branches are not made strict",
      "json",
      '{"type":"object","properties":{"p":{"anyOf":[{"type":"object","properties":{"a":{"type":"string"}}},{"type":"null"}]}}}',
      '{"p": {"a": "x", "extra": 1}}',
      1.0,
      null,
    ],
    [
      "json: $ref targets are made strict",
      "json",
      '{"type":"object","$defs":{"n":{"type":"object","properties":{"v":{"type":"integer"}}}},"properties":{"p":{"$ref":"#/$defs/n"}}}',
      '{"p": {"v": 1, "w": 2}}',
      0.0,
      "validation_error",
    ],
    ["json: an unresolvable $ref", "json", '{"type":"object","properties":{"p":{"$ref":"#/$defs/missing"}}}', '{"p": 1}', 0.0, "validation_error"],
    [
      "json: nullable (OpenAPI 3.0) means nothing in 3.1",
      "json",
      '{"type":"object","properties":{"a":{"type":"string","nullable":true}}}',
      '{"a": null}',
      0.0,
      "validation_error",
    ],
    [
      "json: tuple-form items fails the schema check",
      "json",
      '{"type":"object","properties":{"a":{"type":"array","items":[{"type":"string"}]}}}',
      '{"a": ["x"]}',
      0.0,
      "validation_error",
    ],
    [
      "json: a property named 'properties' breaks the strict schema",
      "json",
      '{"type":"object","properties":{"properties":{"type":"string"}}}',
      '{"properties": "x"}',
      0.0,
      "validation_error",
    ],
    [
      "json: additionalProperties true is overridden",
      "json",
      '{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":true}',
      '{"a": "x", "b": 1}',
      0.0,
      "validation_error",
    ],
    ["json: schema_str that is not JSON", "json", "not json", '{"a": 1}', 0.0, "schema_error"],
    ["json: empty answer", "json", '{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"}}}', "   ", 0.0, "empty_response"],
    [
      "yaml: an unquoted date is a date, not a string",
      "yaml",
      '{"type":"object","properties":{"v":{"type":"string"}}}',
      "v: 2024-05-10",
      0.0,
      "validation_error",
    ],
    ["yaml: a quoted date is a string", "yaml", '{"type":"object","properties":{"v":{"type":"string"}}}', "v: '2024-05-10'", 1.0, null],
    ["yaml: yes is a boolean (YAML 1.1)", "yaml", '{"type":"object","properties":{"v":{"type":"boolean"}}}', "v: yes", 1.0, null],
    ["yaml: y is a string", "yaml", '{"type":"object","properties":{"v":{"type":"string"}}}', "v: y", 1.0, null],
    ["yaml: 10:30 is the sexagesimal int 630", "yaml", '{"type":"object","properties":{"v":{"type":"integer"}}}', "v: 10:30", 1.0, null],
    ["yaml: 012 is octal", "yaml", '{"type":"object","properties":{"v":{"type":"integer"}}}', "v: 012", 1.0, null],
    ["yaml: 1e3 is a string (no dot)", "yaml", '{"type":"object","properties":{"v":{"type":"string"}}}', "v: 1e3", 1.0, null],
    ["yaml: 1.0e+3 is a float", "yaml", '{"type":"object","properties":{"v":{"type":"number"}}}', "v: 1.0e+3", 1.0, null],
    ["yaml: 0o17 is a string", "yaml", '{"type":"object","properties":{"v":{"type":"string"}}}', "v: 0o17", 1.0, null],
    ["yaml: ~ is null", "yaml", '{"type":"object","properties":{"v":{"type":"null"}}}', "v: ~", 1.0, null],
    ["yaml: an empty value is null", "yaml", '{"type":"object","properties":{"v":{"type":"null"}}}', "v:", 1.0, null],
    ["yaml: an impossible date fails to load", "yaml", '{"type":"object","properties":{"v":{"type":"string"}}}', "v: 2024-02-30", 0.0, "parse_error"],
    ["yaml: a fenced block", "yaml", '{"type":"object","properties":{"v":{"type":"string"}}}', "```yaml\nv: x\n```", 0.0, "parse_error"],
    ["yaml: two documents", "yaml", '{"type":"object","properties":{"v":{"type":"string"}}}', "v: x\n---\nv: y\n", 0.0, "parse_error"],
    ["yaml: a document start marker is fine", "yaml", '{"type":"object","properties":{"v":{"type":"string"}}}', "---\nv: x\n", 1.0, null],
    ["yaml: JSON is YAML", "yaml", '{"type":"object","properties":{"v":{"type":"string"}}}', '{"v": "x"}', 1.0, null],
    [
      "yaml: merge keys",
      "yaml",
      '{"type":"object","properties":{"a":{"type":"object","properties":{"x":{"type":"integer"},"y":{"type":"integer"}}},"b":{"type":"object","properties":{"x":{"type":"integer"},"y":{"type":"integer"}}}}}',
      "a: &base\n  x: 1\n  y: 2\nb:\n  <<: *base\n  y: 3\n",
      1.0,
      null,
    ],
    ["yaml: an int key is not the property '1'", "yaml", '{"type":"object","properties":{"1":{"type":"string"}}}', "1: x", 0.0, "validation_error"],
    ["yaml: a custom tag", "yaml", '{"type":"object","properties":{"v":{"type":"string"}}}', "v: !foo x", 0.0, "parse_error"],
    ["yaml: !!str", "yaml", '{"type":"object","properties":{"v":{"type":"string"}}}', "v: !!str 12", 1.0, null],
    ["yaml: !!binary is bytes", "yaml", '{"type":"object","properties":{"v":{"type":"string"}}}', "v: !!binary aGVsbG8=", 0.0, "validation_error"],
    ["yaml: a tab for indentation", "yaml", '{"type":"object","properties":{"v":{"type":"string"}}}', "v:\n\t- x", 0.0, "parse_error"],
    ["yaml: a repeated key keeps the last value", "yaml", '{"type":"object","properties":{"v":{"type":"string"}}}', "v: 1\nv: x", 1.0, null],
    ["yaml: a control character", "yaml", '{"type":"object","properties":{"v":{"type":"string"}}}', "v: \u001b", 0.0, "parse_error"],
    [
      "xml: a single repeated-tag element becomes a one-item list",
      "xml",
      '{"type":"object","properties":{"root":{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"},"score":{"type":"number"},"active":{"type":"boolean"},"tag":{"type":"array","items":{"type":"string"}}}}}}',
      "<root><name>A</name><age>25</age><score>1.5</score><active>true</active><tag>a</tag></root>",
      1.0,
      null,
    ],
    [
      "xml: an empty tag for a list is []",
      "xml",
      '{"type":"object","properties":{"root":{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"},"score":{"type":"number"},"active":{"type":"boolean"},"tag":{"type":"array","items":{"type":"string"}}}}}}',
      "<root><name>A</name><age>25</age><score>1.5</score><active>true</active><tag/></root>",
      1.0,
      null,
    ],
    [
      "xml: an empty tag for a string is ''",
      "xml",
      '{"type":"object","properties":{"root":{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"},"score":{"type":"number"},"active":{"type":"boolean"},"tag":{"type":"array","items":{"type":"string"}}}}}}',
      "<root><name/><age>25</age><score>1.5</score><active>true</active><tag>a</tag></root>",
      1.0,
      null,
    ],
    [
      "xml: an empty tag for an integer stays None",
      "xml",
      '{"type":"object","properties":{"root":{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"},"score":{"type":"number"},"active":{"type":"boolean"},"tag":{"type":"array","items":{"type":"string"}}}}}}',
      "<root><name>A</name><age/><score>1.5</score><active>true</active><tag>a</tag></root>",
      0.0,
      "validation_error",
    ],
    [
      "xml: ' 25 ', 1e3 and 1 coerce",
      "xml",
      '{"type":"object","properties":{"root":{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"},"score":{"type":"number"},"active":{"type":"boolean"},"tag":{"type":"array","items":{"type":"string"}}}}}}',
      "<root><name>A</name><age> 25 </age><score>1e3</score><active>1</active><tag>a</tag></root>",
      1.0,
      null,
    ],
    [
      "xml: 25.0 is not an int and yes is not a boolean",
      "xml",
      '{"type":"object","properties":{"root":{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"},"score":{"type":"number"},"active":{"type":"boolean"},"tag":{"type":"array","items":{"type":"string"}}}}}}',
      "<root><name>A</name><age>25.0</age><score>1</score><active>yes</active><tag>a</tag></root>",
      0.0,
      "validation_error",
    ],
    [
      "xml: an attribute is an extra '@id' property",
      "xml",
      '{"type":"object","properties":{"root":{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"},"score":{"type":"number"},"active":{"type":"boolean"},"tag":{"type":"array","items":{"type":"string"}}}}}}',
      '<root id="1"><name>A</name><age>25</age><score>1.5</score><active>true</active><tag>a</tag></root>',
      0.0,
      "validation_error",
    ],
    [
      "xml: a wrapper element around list items is unwrapped",
      "xml",
      '{"type":"object","properties":{"root":{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"},"score":{"type":"number"},"active":{"type":"boolean"},"tag":{"type":"array","items":{"type":"string"}}}}}}',
      "<root><name>A</name><age>25</age><score>1</score><active>true</active><tag><string>a</string><string>b</string></tag></root>",
      1.0,
      null,
    ],
    [
      "xml: entities decode",
      "xml",
      '{"type":"object","properties":{"root":{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"},"score":{"type":"number"},"active":{"type":"boolean"},"tag":{"type":"array","items":{"type":"string"}}}}}}',
      "<root><name>A &amp; B &#65;</name><age>25</age><score>1</score><active>true</active><tag>a</tag></root>",
      1.0,
      null,
    ],
    [
      "xml: an undefined entity",
      "xml",
      '{"type":"object","properties":{"root":{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"},"score":{"type":"number"},"active":{"type":"boolean"},"tag":{"type":"array","items":{"type":"string"}}}}}}',
      "<root><name>A &nbsp; B</name><age>25</age><score>1</score><active>true</active><tag>a</tag></root>",
      0.0,
      "parse_error",
    ],
    [
      "xml: CDATA and comments inside text",
      "xml",
      '{"type":"object","properties":{"root":{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"},"score":{"type":"number"},"active":{"type":"boolean"},"tag":{"type":"array","items":{"type":"string"}}}}}}',
      "<root><name><![CDATA[A]]><!-- c -->B</name><age>25</age><score>1</score><active>true</active><tag>a</tag></root>",
      1.0,
      null,
    ],
    [
      "xml: mixed content adds #text",
      "xml",
      '{"type":"object","properties":{"root":{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"},"score":{"type":"number"},"active":{"type":"boolean"},"tag":{"type":"array","items":{"type":"string"}}}}}}',
      "<root><name>A <i>x</i> B</name><age>25</age><score>1</score><active>true</active><tag>a</tag></root>",
      0.0,
      "validation_error",
    ],
    [
      "xml: a declaration after whitespace",
      "xml",
      '{"type":"object","properties":{"root":{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"},"score":{"type":"number"},"active":{"type":"boolean"},"tag":{"type":"array","items":{"type":"string"}}}}}}',
      '\n<?xml version="1.0"?><root><name>A</name><age>25</age><score>1.5</score><active>true</active><tag>a</tag></root>',
      0.0,
      "parse_error",
    ],
    [
      "xml: text after the root",
      "xml",
      '{"type":"object","properties":{"root":{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"},"score":{"type":"number"},"active":{"type":"boolean"},"tag":{"type":"array","items":{"type":"string"}}}}}}',
      "<root><name>A</name><age>25</age><score>1.5</score><active>true</active><tag>a</tag></root>\nDone!",
      0.0,
      "parse_error",
    ],
    [
      "xml: two roots",
      "xml",
      '{"type":"object","properties":{"root":{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"},"score":{"type":"number"},"active":{"type":"boolean"},"tag":{"type":"array","items":{"type":"string"}}}}}}',
      "<root><name>A</name><age>25</age><score>1.5</score><active>true</active><tag>a</tag></root><root/>",
      0.0,
      "parse_error",
    ],
    [
      "xml: a fenced block",
      "xml",
      '{"type":"object","properties":{"root":{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"},"score":{"type":"number"},"active":{"type":"boolean"},"tag":{"type":"array","items":{"type":"string"}}}}}}',
      "```xml\n<root><name>A</name><age>25</age><score>1.5</score><active>true</active><tag>a</tag></root>\n```",
      0.0,
      "parse_error",
    ],
    [
      "xml: an entity declaration (disable_entities)",
      "xml",
      '{"type":"object","properties":{"root":{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"},"score":{"type":"number"},"active":{"type":"boolean"},"tag":{"type":"array","items":{"type":"string"}}}}}}',
      '<!DOCTYPE root [<!ENTITY e "v">]><root><name>&e;</name></root>',
      0.0,
      "parse_error",
    ],
    [
      "xml: a nullable type is not coerced",
      "xml",
      '{"type":"object","properties":{"r":{"type":"object","properties":{"n":{"type":["integer","null"]}}}}}',
      "<r><n>5</n></r>",
      0.0,
      "validation_error",
    ],
    [
      "xml: a one-child object in an array position is unwrapped to its value",
      "xml",
      '{"type":"object","properties":{"items":{"type":"object","properties":{"item":{"type":"array","items":{"type":"object","properties":{"id":{"type":"integer"}}}}}}}}',
      "<items><item><id>1</id></item></items>",
      0.0,
      "validation_error",
    ],
    [
      "toml: valid",
      "toml",
      '{"type":"object","properties":{"name":{"type":"string"},"n":{"type":"integer"},"when":{"type":"string"},"s":{"type":"object","properties":{"a":{"type":"integer"}}}}}',
      'name = "p"\nn = 1\nwhen = "2024-01-01"\n[s]\na = 1\n',
      1.0,
      null,
    ],
    [
      "toml: a bare date is a date, not a string",
      "toml",
      '{"type":"object","properties":{"name":{"type":"string"},"n":{"type":"integer"},"when":{"type":"string"},"s":{"type":"object","properties":{"a":{"type":"integer"}}}}}',
      'name = "p"\nn = 1\nwhen = 2024-01-01\n[s]\na = 1\n',
      0.0,
      "validation_error",
    ],
    [
      "toml: an impossible date",
      "toml",
      '{"type":"object","properties":{"name":{"type":"string"},"n":{"type":"integer"},"when":{"type":"string"},"s":{"type":"object","properties":{"a":{"type":"integer"}}}}}',
      'name = "p"\nn = 1\nwhen = 2024-02-30\n[s]\na = 1\n',
      0.0,
      "parse_error",
    ],
    [
      "toml: hex and underscores",
      "toml",
      '{"type":"object","properties":{"name":{"type":"string"},"n":{"type":"integer"},"when":{"type":"string"},"s":{"type":"object","properties":{"a":{"type":"integer"}}}}}',
      'name = "p"\nn = 0x1_F\nwhen = "2024-01-01"\n[s]\na = 1\n',
      1.0,
      null,
    ],
    [
      "toml: an inline table",
      "toml",
      '{"type":"object","properties":{"name":{"type":"string"},"n":{"type":"integer"},"when":{"type":"string"},"s":{"type":"object","properties":{"a":{"type":"integer"}}}}}',
      'name = "p"\nn = 1\nwhen = "2024-01-01"\ns = {a = 1}\n',
      1.0,
      null,
    ],
    [
      "toml: a redefined key",
      "toml",
      '{"type":"object","properties":{"name":{"type":"string"},"n":{"type":"integer"},"when":{"type":"string"},"s":{"type":"object","properties":{"a":{"type":"integer"}}}}}',
      'name = "p"\nn = 1\nwhen = "2024-01-01"\n[s]\na = 1\na = 2\n',
      0.0,
      "parse_error",
    ],
    [
      "toml: a fenced block",
      "toml",
      '{"type":"object","properties":{"name":{"type":"string"},"n":{"type":"integer"},"when":{"type":"string"},"s":{"type":"object","properties":{"a":{"type":"integer"}}}}}',
      '```toml\nname = "p"\nn = 1\nwhen = "2024-01-01"\n[s]\na = 1\n```',
      0.0,
      "parse_error",
    ],
    [
      "csv: header only is an empty list",
      "csv",
      '{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"},"ok":{"type":"boolean"}}}}',
      "name,age,ok\n",
      1.0,
      null,
    ],
    [
      "csv: quoted commas and doubled quotes",
      "csv",
      '{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"},"ok":{"type":"boolean"}}}}',
      'name,age,ok\n"Smith, ""J""",1,true\n',
      1.0,
      null,
    ],
    [
      "csv: a newline inside quotes",
      "csv",
      '{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"},"ok":{"type":"boolean"}}}}',
      'name,age,ok\n"two\nlines",1,true\n',
      1.0,
      null,
    ],
    [
      "csv: CRLF and blank lines",
      "csv",
      '{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"},"ok":{"type":"boolean"}}}}',
      "name,age,ok\r\n\r\nA,1,TRUE\r\n",
      1.0,
      null,
    ],
    [
      "csv: a missing cell is None",
      "csv",
      '{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"},"ok":{"type":"boolean"}}}}',
      "name,age,ok\nA,1\n",
      0.0,
      "validation_error",
    ],
    [
      "csv: an extra cell goes under the key None",
      "csv",
      '{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"},"ok":{"type":"boolean"}}}}',
      "name,age,ok\nA,1,true,x\n",
      0.0,
      "validation_error",
    ],
    [
      "csv: an empty integer cell stays ''",
      "csv",
      '{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"},"ok":{"type":"boolean"}}}}',
      "name,age,ok\nA,,true\n",
      0.0,
      "validation_error",
    ],
    [
      "csv: int() accepts spaces and underscores",
      "csv",
      '{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"},"ok":{"type":"boolean"}}}}',
      "name,age,ok\nA, 1_000 ,0\n",
      1.0,
      null,
    ],
    [
      "csv: yes is not a boolean",
      "csv",
      '{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"},"ok":{"type":"boolean"}}}}',
      "name,age,ok\nA,1,yes\n",
      0.0,
      "validation_error",
    ],
    [
      "csv: a lone carriage return inside a line",
      "csv",
      '{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"},"ok":{"type":"boolean"}}}}',
      "name,age,ok\nA,1,true\rB,2,false\n",
      0.0,
      "parse_error",
    ],
    // Python joins text after a closing quote into the field ("abc"); csv-parse keeps the quotes ('"ab"c'). Either is a
    // string, so the reward is NeMo Gym's; a pattern or enum on such a field would differ (see the README).
    [
      "csv: text after a closing quote joins the field",
      "csv",
      '{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"},"ok":{"type":"boolean"}}}}',
      'name,age,ok\n"ab"c,1,true\n',
      1.0,
      null,
    ],
    [
      "csv: an unterminated quote runs to the end",
      "csv",
      '{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"},"ok":{"type":"boolean"}}}}',
      'name,age,ok\n"abc,1,true\n',
      0.0,
      "validation_error",
    ],
    [
      "csv: a fenced block",
      "csv",
      '{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"},"ok":{"type":"boolean"}}}}',
      "```csv\nname,age,ok\nA,1,true\n```",
      0.0,
      "validation_error",
    ],
    [
      "csv: semicolons are one column",
      "csv",
      '{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"},"ok":{"type":"boolean"}}}}',
      "name;age;ok\nA;1;true\n",
      0.0,
      "validation_error",
    ],
    [
      "csv: a type list keeps the first non-string conversion",
      "csv",
      '{"type":"array","items":{"type":"object","properties":{"v":{"type":["number","string"]}}}}',
      "v\n1.5\nabc\n",
      1.0,
      null,
    ],
    // Added with the move to @cfworker/json-schema, csv-parse and XMLValidator: the adapters around them (expectations
    // from NeMo Gym's app.py with openapi-schema-validator 0.6.3, as these above).
    [
      "json: multipleOf 0.5 with NaN fails (float division raises)",
      "json",
      '{"type": "object", "properties": {"p": {"multipleOf": 0.5}}}',
      '{"p": NaN}',
      0.0,
      "validation_error",
    ],
    [
      "json: multipleOf 0.1 rejects 0.3 (float division)",
      "json",
      '{"type": "object", "properties": {"p": {"type": "number", "multipleOf": 0.1}}}',
      '{"p": 0.3}',
      0.0,
      "validation_error",
    ],
    ["json: multipleOf 2.5 accepts 7.5", "json", '{"type": "object", "properties": {"p": {"type": "number", "multipleOf": 2.5}}}', '{"p": 7.5}', 1.0, null],
    [
      "json: multipleOf 0.3 accepts 1e20 (its float quotient is whole)",
      "json",
      '{"type": "object", "properties": {"p": {"type": "number", "multipleOf": 0.3}}}',
      '{"p": 1e20}',
      1.0,
      null,
    ],
    ["json: Infinity is not an integer", "json", '{"type": "object", "properties": {"p": {"type": "integer"}}}', '{"p": Infinity}', 0.0, "validation_error"],
    [
      "json: $dynamicRef to the root's $dynamicAnchor",
      "json",
      '{"$dynamicAnchor": "m", "type": "object", "properties": {"p": {"$dynamicRef": "#m"}}}',
      '{"p": {"p": 1}}',
      0.0,
      "validation_error",
    ],
    [
      "json: an $anchor reference",
      "json",
      '{"$id": "https://example.com/root", "$defs": {"a": {"$anchor": "A", "type": "integer"}}, "type": "object", "properties": {"p": {"$ref": "#A"}}}',
      '{"p": "x"}',
      0.0,
      "validation_error",
    ],
    ["json: legacy dependencies are not applied in 2020-12", "json", '{"dependencies": {"a": ["b"]}}', '{"a": 1}', 1.0, null],
    ["json: dependentRequired is", "json", '{"dependentRequired": {"a": ["b"]}}', '{"a": 1}', 0.0, "validation_error"],
    [
      "json: format date is not asserted",
      "json",
      '{"type": "object", "properties": {"p": {"type": "string", "format": "date"}}}',
      '{"p": "2024-13-45"}',
      1.0,
      null,
    ],
    [
      "json: format must still be a string (metaschema)",
      "json",
      '{"type": "object", "properties": {"p": {"type": "string", "format": 5}}}',
      '{"p": "x"}',
      0.0,
      "validation_error",
    ],
    [
      "json: an invalid patternProperties regex fails the schema check",
      "json",
      '{"patternProperties": {"(": {"type": "integer"}}}',
      '{"x": "s"}',
      0.0,
      "validation_error",
    ],
    [
      "json: a Python named group in patternProperties",
      "json",
      '{"patternProperties": {"(?P<n>x)": {"type": "integer"}}}',
      '{"x": "s"}',
      0.0,
      "validation_error",
    ],
    [
      "json: a verbose-mode pattern",
      "json",
      '{"type": "object", "properties": {"p": {"type": "string", "pattern": "(?x) ^ a b $ # comment"}}}',
      '{"p": "ab"}',
      1.0,
      null,
    ],
    [
      "json: a variable-width lookbehind is re.error",
      "json",
      '{"type": "object", "properties": {"p": {"type": "string", "pattern": "(?<=a+)b"}}}',
      '{"p": "ab"}',
      0.0,
      "validation_error",
    ],
    [
      "json: an atomic group",
      "json",
      '{"type": "object", "properties": {"p": {"type": "string", "pattern": "^(?>a+)a$"}}}',
      '{"p": "aaa"}',
      0.0,
      "validation_error",
    ],
    [
      "json: minLength must be a non-negative integer (metaschema)",
      "json",
      '{"type": "object", "properties": {"p": {"type": "string", "minLength": -1}}}',
      '{"p": "x"}',
      0.0,
      "validation_error",
    ],
    [
      "json: unevaluatedProperties sees allOf's properties",
      "json",
      '{"allOf": [{"properties": {"a": {}}}], "unevaluatedProperties": false}',
      '{"a": 1, "b": 2}',
      0.0,
      "validation_error",
    ],
    [
      "yaml: a date fits no type, object included",
      "yaml",
      '{"type": "object", "properties": {"p": {"type": "object"}}}',
      "p: 2024-05-10",
      0.0,
      "validation_error",
    ],
    ["yaml: a date passes a schema with no type", "yaml", '{"type": "object", "properties": {"p": {}}}', "p: 2024-05-10", 1.0, null],
    [
      "yaml: multipleOf 0.01 rejects 19.99 here too",
      "yaml",
      '{"type": "object", "properties": {"p": {"type": "number", "multipleOf": 0.01}}}',
      "p: 19.99",
      0.0,
      "validation_error",
    ],
    [
      "csv: a lone carriage return closing the last line is fine",
      "csv",
      '{"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}, "age": {"type": "integer"}, "ok": {"type": "boolean"}}}}',
      "name,age,ok\nA,1,true\r",
      1.0,
      null,
    ],
    [
      "csv: carriage returns before a newline are fine",
      "csv",
      '{"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}, "age": {"type": "integer"}, "ok": {"type": "boolean"}}}}',
      "name,age,ok\nA,1,true\r\r\nB,2,false\n",
      1.0,
      null,
    ],
    [
      "csv: a carriage return inside quotes is data",
      "csv",
      '{"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}, "age": {"type": "integer"}, "ok": {"type": "boolean"}}}}',
      'name,age,ok\n"A\rB",1,true\n',
      1.0,
      null,
    ],
    [
      "csv: a blank first line is an empty header",
      "csv",
      '{"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}, "age": {"type": "integer"}, "ok": {"type": "boolean"}}}}',
      "\nname,age,ok\nA,1,true\n",
      0.0,
      "validation_error",
    ],
    ["xml: a control character is not XML", "xml", '{"type": "object"}', "<r>\u0001</r>", 0.0, "parse_error"],
    ["xml: ]]> in text is not XML", "xml", '{"type": "object"}', "<r><a>]]></a></r>", 0.0, "parse_error"],
  ];
  it.each(CASES)("%s", async (_note, schemaType, schemaStr, text, reward, errorType) => {
    const answer = await verifyInWorkerd(textRequest(schemaStr, schemaType, text));
    expect(answer.status).toBe(200);
    expect([answer.body.reward, answer.body.error_type]).toEqual([reward, errorType]);
  });
});

describe("more edge cases", () => {
  it("error messages: Python's JSONDecodeError text and position, truncated at 200 code points", async () => {
    const answer = await verifyInNode(textRequest({ type: "object" }, "json", '{"a": 1,}'));
    expect(answer.error_message).toBe("JSONDecodeError: Illegal trailing comma before end of object: line 1 column 8 (char 7)");
    const long = await verifyInNode(textRequest({ type: "object", properties: { a: { type: "integer" } } }, "json", JSON.stringify({ a: "é".repeat(300) })));
    expect([...(long.error_message ?? "")].length).toBe("ValidationError: ".length + 200);
  });
  it("schema_type is checked like NeMo Gym's enum (invalid: 400), defaults to json; the text of every message counts", async () => {
    expect((await verifyInWorkerd(textRequest({ type: "object" }, "JSON", "{}"))).status).toBe(400);
    const { schema_type: _omitted, ...defaulted } = textRequest({ type: "object" }, "json", "{}");
    expect(await verifyInNode(defaulted)).toMatchObject({ reward: 1, schema_type: "json", response_mode: "text", tool_name: null });
    const split = { ...textRequest({ type: "object" }, "json", ""), response: response([message('{"a"'), call("f", "{}"), message(": 1}")]) };
    expect((await verifyInNode(split)).reward).toBe(1);
  });
  it('a schema whose strictify step raises ("properties": 5) fails the request, as it does in NeMo Gym', async () => {
    const answer = await verifyInWorkerd(textRequest('{"type": "object", "properties": 5}', "json", "{}"));
    expect(answer.status).toBe(500);
  });
  it("compute_metrics: mean reward per format, problem type and v4 knob, replacing the default pass@k", () => {
    const rollout = (reward: number, extra: Record<string, unknown>) => ({ reward, schema_type: "json", ...extra });
    const metrics = computeMetrics([
      [
        rollout(1, { problem_type: "direct_tool_call", parallel_tool_calls: true, num_tools: 16, has_distractors: true }),
        rollout(0, { schema_type: "yaml", tool_choice: "auto" }),
      ],
      [rollout(0, { problem_type: "direct_tool_call", parallel_tool_calls: false, num_tools: 1, has_distractors: false })],
    ]);
    expect(metrics).toEqual({
      "mean/reward_json": 0.5,
      "mean/reward_yaml": 0,
      "mean/reward_direct_tool_call": 0.5,
      "mean/reward_tool_choice_auto": 0,
      "mean/reward_parallel_tool_calls_true": 1,
      "mean/reward_parallel_tool_calls_false": 0,
      "mean/reward_num_tools_16": 1,
      "mean/reward_num_tools_1": 0,
      "mean/reward_has_distractors_true": 1,
      "mean/reward_has_distractors_false": 0,
    });
  });
});

// The simulator honours response_format as vLLM's guided decoding does: the answer is JSON that validates against the schema.
import { Validator, type Schema } from "@cfworker/json-schema";
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AnswerJudgment, answerSchema, EXPLANATION_SCHEMA, ExplanationJudgment } from "../../environments/bbq/schema.js";
import { startSimulator, type Simulator } from "../../local/simulator/server.js";
import { structuredContent } from "../../local/simulator/structured.js";

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(async () => {
  await sim.close();
});
beforeEach(() => sim.reset());

interface Answer {
  status: number;
  content: string | null;
  tool_calls: unknown[];
  error?: { message: string; type: string; param: string | null; code: number };
}

async function ask(prompt: string, response_format: unknown, extra: Record<string, unknown> = {}): Promise<Answer> {
  const response = await fetch(`${sim.url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "edgegym-sim", messages: [{ role: "user", content: prompt }], response_format, ...extra }),
  });
  const body = (await response.json()) as { choices?: Array<{ message: { content: string | null; tool_calls: unknown[] } }>; error?: Answer["error"] };
  const message = body.choices?.[0]?.message;
  return { status: response.status, content: message?.content ?? null, tool_calls: message?.tool_calls ?? [], error: body.error };
}

const withSchema = (schema: unknown, name = "answer") => ({ type: "json_schema", json_schema: { name, strict: true, schema } });

function problems(schema: unknown, value: unknown): string[] {
  const result = new Validator(schema as Schema, "2020-12", false).validate(value);
  return result.errors.map((error) => `${error.instanceLocation}: ${error.error}`);
}

// pydantic's output for a nested model: $defs and $ref, Optional as anyOf with null, a list of models.
const PYDANTIC_ORDER = {
  $defs: {
    Item: {
      properties: { sku: { title: "Sku", type: "string", minLength: 3, maxLength: 5 }, quantity: { type: "integer", minimum: 1, maximum: 9 } },
      required: ["sku", "quantity"],
      title: "Item",
      type: "object",
      additionalProperties: false,
    },
  },
  properties: {
    id: { type: "string", format: "uuid" },
    items: { items: { $ref: "#/$defs/Item" }, minItems: 2, maxItems: 3, type: "array", uniqueItems: true },
    note: { anyOf: [{ type: "string" }, { type: "null" }], default: null },
    gift: { type: "boolean" },
    status: { enum: ["new", "paid", "shipped"], type: "string" },
  },
  required: ["id", "items", "note", "gift", "status"],
  title: "Order",
  type: "object",
  additionalProperties: false,
};

const SCHEMAS: Record<string, unknown> = {
  "bbq answer check": answerSchema(["uncertain", "actor_a", "actor_b"]),
  "bbq explanation quality": EXPLANATION_SCHEMA,
  "pydantic nested order": PYDANTIC_ORDER,
  numbers: {
    type: "object",
    properties: {
      even: { type: "integer", multipleOf: 2, exclusiveMinimum: 10, maximum: 20 },
      ratio: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 },
      negative: { type: "number", maximum: -3.5 },
      code: { const: 42 },
      level: { enum: [1, 2, 3] },
    },
    required: ["even", "ratio", "negative", "code", "level"],
  },
  "arrays and nullable types": {
    type: "object",
    properties: {
      pair: { type: "array", prefixItems: [{ type: "string" }, { type: "number" }], items: false, minItems: 2 },
      tags: { type: "array", items: { type: "string", maxLength: 4 } },
      maybe: { type: ["string", "null"], minLength: 30 },
      when: { type: "string", format: "date-time" },
    },
    required: ["pair", "tags", "maybe", "when"],
  },
  "allOf and a top-level array": {
    type: "array",
    items: { allOf: [{ $ref: "#/$defs/Named" }, { properties: { age: { type: "integer" } }, required: ["age"] }] },
    minItems: 1,
    $defs: { Named: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } },
  },
  "a bare enum": { enum: ["yes", "no", "maybe"] },
  "a recursive model, keywords beside $ref": {
    $defs: {
      Node: {
        type: "object",
        properties: { name: { $ref: "#/$defs/Name", maxLength: 3 }, children: { type: "array", items: { $ref: "#/$defs/Node" } } },
        required: ["name"],
      },
      Name: { type: "string", minLength: 2, description: "a short name" },
    },
    $ref: "#/$defs/Node",
  },
  "unique items": {
    type: "object",
    properties: {
      big: { type: "array", items: { type: "integer", minimum: 100 }, minItems: 3, uniqueItems: true },
      flags: { type: "array", items: { type: "boolean" }, minItems: 2, uniqueItems: true },
      short: { type: "array", items: { type: "string", maxLength: 2 }, minItems: 3, uniqueItems: true },
    },
    required: ["big", "flags", "short"],
  },
};

describe("response_format json_schema", () => {
  it.each(Object.entries(SCHEMAS))("%s: the answer parses and validates against the schema", async (_name, schema) => {
    const answer = await ask("Which actor was more careful with the receipts, and why?", withSchema(schema));
    expect(answer.status).toBe(200);
    expect(answer.tool_calls).toEqual([]);
    expect(problems(schema, JSON.parse(answer.content!))).toEqual([]);
  });

  it("bbq's judges get verdicts their strict models accept (the npm start blocker)", async () => {
    for (const prompt of ["Judge the first answer.", "Judge the second answer.", "Judge the third answer."]) {
      const answer = await ask(prompt, withSchema(answerSchema(["uncertain", "actor_a", "actor_b"])));
      expect(AnswerJudgment.safeParse(JSON.parse(answer.content!)).success).toBe(true);
      const explanation = await ask(prompt, withSchema(EXPLANATION_SCHEMA));
      expect(ExplanationJudgment.safeParse(JSON.parse(explanation.content!)).success).toBe(true);
    }
  });

  it("is deterministic per prompt, and different prompts pick different enum members", async () => {
    const schema = SCHEMAS["a bare enum"];
    const first = await ask("Is the sky green?", withSchema(schema));
    const again = await ask("Is the sky green?", withSchema(schema));
    expect(again.content).toBe(first.content);
    const picks = new Set(Array.from({ length: 12 }, (_, i) => structuredContent(withSchema(schema) as never, `question ${i}`)));
    expect(picks.size).toBeGreaterThan(1);
  });

  it("validates for any prompt (property check over the schemas above)", () => {
    fc.assert(
      fc.property(fc.string(), fc.constantFrom(...Object.values(SCHEMAS)), (prompt, schema) => {
        const content = structuredContent(withSchema(schema) as never, prompt);
        expect(problems(schema, JSON.parse(content!))).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it("streams the same JSON in chunks", async () => {
    const response = await fetch(`${sim.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: "Grade this." }], response_format: withSchema(EXPLANATION_SCHEMA), stream: true }),
    });
    const chunks = (await response.text())
      .split("\n")
      .filter((line) => line.startsWith("data: {"))
      .map((line) => JSON.parse(line.slice(6)) as { choices: Array<{ delta: { content?: string | null } }> });
    const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("");
    expect(problems(EXPLANATION_SCHEMA, JSON.parse(text))).toEqual([]);
  });
});

describe("other response formats", () => {
  it("json_object gives a JSON object; text leaves the answer free", async () => {
    const object = await ask("Reply in JSON please.", { type: "json_object" });
    expect(object.status).toBe(200);
    const parsed: unknown = JSON.parse(object.content!);
    expect(typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)).toBe(true);
    const free = await ask("Say hello", { type: "text" });
    expect(free.content).toContain("Say hello");
  });

  it("a scripted reply wins over the schema (tests choose the judge's words)", async () => {
    sim.script({ content: "not json" });
    expect((await ask("anything", withSchema(EXPLANATION_SCHEMA))).content).toBe("not json");
  });
});

describe("schemas the simulator cannot honour: 400, as vLLM refuses a schema its backend cannot compile", () => {
  it.each([
    ["pattern", { type: "object", properties: { zip: { type: "string", pattern: "^[0-9]{5}$" } }, required: ["zip"] }, "'pattern' at $.zip"],
    ["not", { not: { type: "string" } }, "'not' at $"],
    ["an unknown format", { type: "string", format: "credit-card" }, "'format' at $ (credit-card)"],
    ["no integer in range", { type: "integer", minimum: 0.2, maximum: 0.8 }, "'multipleOf' at $"],
    ["a missing $ref target", { $ref: "#/$defs/Nope" }, "'$ref' at $ (#/$defs/Nope not found)"],
    ["a $ref to itself", { $defs: { A: { $ref: "#/$defs/A" } }, $ref: "#/$defs/A" }, "'$ref' at $ (recursion deeper than 32)"],
  ])("%s", async (_name, schema, where) => {
    const answer = await ask("anything", withSchema(schema));
    expect(answer.status).toBe(400);
    expect(answer.error).toEqual({
      message: `The provided JSON schema contains features not supported by the simulator: ${where}`,
      type: "BadRequestError",
      param: "response_format",
      code: 400,
    });
  });

  it("a malformed response_format is a 400 naming the field", async () => {
    const missing = await ask("anything", { type: "json_schema" });
    expect(missing.status).toBe(400);
    expect(missing.error?.param).toBe("response_format.json_schema");
    const unknown = await ask("anything", { type: "grammar" });
    expect(unknown.status).toBe(400);
    expect(unknown.error?.param).toBe("response_format.type");
  });
});

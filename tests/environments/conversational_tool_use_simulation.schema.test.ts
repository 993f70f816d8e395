// The port's JSON Schema check against Python jsonschema 4.26 (Draft 2020-12): the same first error, with the same message.
import { describe, expect, it } from "vitest";
import { firstError, UnsupportedSchemaError, validate } from "../../environments/conversational_tool_use_simulation/schema.js";
import { pyJsonValue } from "../../environments/sdk/python/index.js";

// [schema, instance (JSON text, parsed as json.loads parses it), jsonschema's `validate` message or null]: CPython's answers.
const CASES: [string, string, string | null][] = [
  ['{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a", "b"]}', '{"a": 1}', "1 is not of type 'string'"],
  ['{"type": "object", "required": ["a", "b"], "properties": {"a": {"type": "string"}}}', '{"a": 1}', "'b' is a required property"],
  ['{"type": "object"}', "[]", "[] is not of type 'object'"],
  ['{"type": ["string", "null"]}', "5", "5 is not of type 'string', 'null'"],
  ['{"type": "integer"}', "1.0", null],
  ['{"type": "integer"}', "true", "True is not of type 'integer'"],
  ['{"type": "number"}', "false", "False is not of type 'number'"],
  ['{"enum": [1, "a", null, true]}', "2", "2 is not one of [1, 'a', None, True]"],
  ['{"enum": [1]}', "true", "True is not one of [1]"],
  ['{"enum": [1]}', "1.0", null],
  ['{"type": "array", "items": {"type": "object", "properties": {"x": {"enum": ["p", "q"]}}}}', '[{"x": "p"}, {"x": "z"}]', "'z' is not one of ['p', 'q']"],
  ['{"type": "string"}', '{"k": [1, 2.5, null, "\\u00e9\\n"]}', "{'k': [1, 2.5, None, 'é\\n']} is not of type 'string'"],
  ['{"type": "object", "properties": {"n": {"type": "integer"}}}', '{"n": 12345678901234567890}', null],
  ['{"type": "object", "properties": {"s": {"type": "string"}}}', '{"s": "it\'s"}', null],
  ['{"type": "boolean"}', '"true"', "'true' is not of type 'boolean'"],
];

describe("jsonschema's first error", () => {
  it.each(CASES)("%s ← %s", (schema, instance, message) => {
    expect(firstError(pyJsonValue(instance), JSON.parse(schema))).toBe(message ?? undefined);
  });

  it("a schema with a keyword the port does not check is refused, not half-checked", () => {
    expect(() => validate("x", { type: "string", pattern: "^a" })).toThrow(UnsupportedSchemaError);
    expect(() => validate(1n, { type: "int" })).toThrow(UnsupportedSchemaError);
  });
});

// NeMo Gym's structured_outputs scoring: parse the answer in the row's format, strictify the schema, validate.
import { coerceCsvTypes, coerceXmlTypes } from "./coerce.js";
import { csvDictRows } from "./formats/csv.js";
import { tomlLoads } from "./formats/toml.js";
import { xmlToDict } from "./formats/xml.js";
import { yamlSafeLoad } from "./formats/yaml.js";
import { jsonLoads } from "./python/json.js";
import { pyStrip } from "../sdk/python/text.js";
import { PyError, describeError, isDict, pyTypeName, truncate, type PyValue } from "./python/value.js";
import { validate } from "./schema/validate.js";

export const SCHEMA_TYPES = ["json", "yaml", "xml", "toml", "csv"] as const;
export type SchemaType = (typeof SCHEMA_TYPES)[number];

/** The verify fields NeMo Gym adds: reward, and why it is 0 (both None on success). A type alias, so it is a plain record. */
export type Evaluation = {
  reward: number;
  error_type: string | null;
  error_message: string | null;
};

export interface EvaluateOptions {
  /** NeMo Gym's `xml_coerce_types` server config (default true): XML text turned into the schema's scalar types. */
  xmlCoerceTypes?: boolean;
}

const PASS: Evaluation = { reward: 1.0, error_type: null, error_message: null };
const failure = (error_type: string, error_message: string): Evaluation => ({ reward: 0.0, error_type, error_message });

/** list(x) as Python builds it: a dict's keys, a list's items, a str's characters; anything else is a TypeError. */
function pyList(value: PyValue): PyValue[] {
  if (isDict(value)) return [...value.keys()] as PyValue[];
  if (Array.isArray(value)) return [...value];
  if (typeof value === "string") return [...value];
  throw new PyError("TypeError", `'${pyTypeName(value)}' object is not iterable`);
}

/**
 * strictify_schema: every dict with "properties" gets all of them required and additionalProperties false.
 * It recurses through dict values only, so schemas inside lists (anyOf, oneOf, allOf, prefixItems) stay as written,
 * and a property literally named "properties" is itself strictified (which then fails the metaschema check).
 * A TypeError here (e.g. "properties": 5) escapes NeMo Gym's handlers, so it fails the request.
 */
export function strictifySchema(schema: PyValue): void {
  if (!isDict(schema)) return;
  if (schema.has("properties")) {
    schema.set("required", pyList(schema.get("properties")!));
    schema.set("additionalProperties", false);
  }
  for (const value of schema.values()) strictifySchema(value);
}

/** parse_content: the answer text as the row's format. */
export function parseContent(schemaType: SchemaType, content: string): PyValue {
  switch (schemaType) {
    case "json":
      return jsonLoads(content);
    case "yaml":
      return yamlSafeLoad(content);
    case "xml":
      return xmlToDict(content);
    case "toml":
      return tomlLoads(content);
    case "csv":
      return csvDictRows(content);
  }
}

function loadSchema(schemaStr: string): PyValue | Evaluation {
  try {
    return jsonLoads(schemaStr);
  } catch (error) {
    // NeMo Gym reports str(e)[:200] here, without the exception's name.
    return failure("schema_error", truncate(error instanceof PyError ? error.detail : String(error)));
  }
}

function isEvaluation(value: PyValue | Evaluation): value is Evaluation {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !isDict(value) && "error_type" in value;
}

/** evaluate_structured_output_response: text answers (v1–v3 rows). */
export function evaluateText(schemaType: SchemaType, schemaStr: string, text: string, options: EvaluateOptions = {}): Evaluation {
  if (!text || !pyStrip(text)) return failure("empty_response", "No assistant response text");
  const schema = loadSchema(schemaStr);
  if (isEvaluation(schema)) return schema;
  strictifySchema(schema);

  let answer: PyValue;
  try {
    answer = parseContent(schemaType, text);
  } catch (error) {
    return failure("parse_error", describeError(error));
  }
  try {
    if (schemaType === "xml" && (options.xmlCoerceTypes ?? true)) answer = coerceXmlTypes(answer, schema);
    if (schemaType === "csv") answer = coerceCsvTypes(answer as PyValue[], schema);
    validate(answer, schema);
    return PASS;
  } catch (error) {
    return failure("validation_error", describeError(error));
  }
}

/** evaluate_structured_object_response: an already-parsed tool-call payload (v4 rows). */
export function evaluateObject(schemaStr: string, payload: PyValue): Evaluation {
  const schema = loadSchema(schemaStr);
  if (isEvaluation(schema)) return schema;
  strictifySchema(schema);
  try {
    validate(payload, schema);
    return PASS;
  } catch (error) {
    return failure("validation_error", describeError(error));
  }
}

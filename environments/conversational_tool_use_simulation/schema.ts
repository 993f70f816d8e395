// Python jsonschema's Draft 2020-12 check of tool arguments and results: the first error, with jsonschema's message.
import { pyRepr, pyReprStr } from "../sdk/python/index.js";

/** jsonschema's ValidationError: `message` as Python prints `validation_error.message`. */
export class SchemaValidationError extends Error {}

/** A schema that uses a validation keyword this port does not implement (none of NeMo Gym's example tools do). */
export class UnsupportedSchemaError extends Error {}

const TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);
// Keywords with no effect on validity (annotations) or that this port checks; anything else known to JSON Schema is refused.
const IGNORED = new Set([
  "title",
  "description",
  "default",
  "examples",
  "$schema",
  "$id",
  "$comment",
  "optional",
  "strict",
  "deprecated",
  "readOnly",
  "writeOnly",
]);
const CHECKED = new Set(["type", "properties", "required", "enum", "items"]);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Python's isinstance checks as jsonschema's type checker makes them (a bool is neither an integer nor a number). */
function isType(instance: unknown, type: string): boolean {
  switch (type) {
    case "string":
      return typeof instance === "string";
    case "boolean":
      return typeof instance === "boolean";
    case "null":
      return instance === null;
    case "array":
      return Array.isArray(instance);
    case "object":
      return isObject(instance);
    case "number":
      return typeof instance === "bigint" || typeof instance === "number";
    case "integer":
      return typeof instance === "bigint" || (typeof instance === "number" && Number.isInteger(instance));
    default:
      return false;
  }
}

/** The schema's own values are plain JSON (numbers as numbers): an integral one prints as Python's int. */
function reprSchemaValue(value: unknown): string {
  if (typeof value === "number" && Number.isInteger(value)) return String(value);
  if (Array.isArray(value)) return `[${value.map(reprSchemaValue).join(", ")}]`;
  if (isObject(value))
    return `{${Object.entries(value)
      .map(([k, v]) => `${pyReprStr(k)}: ${reprSchemaValue(v)}`)
      .join(", ")}}`;
  return pyRepr(value);
}

/** jsonschema's `equal`: strings by value, bools never equal to numbers, sequences and mappings element-wise. */
function equal(one: unknown, two: unknown): boolean {
  if (typeof one === "string" || typeof two === "string") return one === two;
  if (Array.isArray(one) && Array.isArray(two)) return one.length === two.length && one.every((item, i) => equal(item, two[i]));
  if (isObject(one) && isObject(two)) {
    const keys = Object.keys(one);
    return keys.length === Object.keys(two).length && keys.every((key) => key in two && equal(one[key], two[key]));
  }
  if (typeof one === "boolean" || typeof two === "boolean") return one === two;
  if ((typeof one === "number" || typeof one === "bigint") && (typeof two === "number" || typeof two === "bigint")) return Number(one) === Number(two);
  return one === two;
}

/** check_schema's part this port needs: type names must be JSON Schema's; unknown validation keywords are refused. */
export function checkSchema(schema: unknown): void {
  if (!isObject(schema)) {
    if (typeof schema === "boolean") return;
    throw new UnsupportedSchemaError(`${reprSchemaValue(schema)} is not of type 'object', 'boolean'`);
  }
  for (const [keyword, value] of Object.entries(schema)) {
    if (IGNORED.has(keyword)) continue;
    if (!CHECKED.has(keyword)) throw new UnsupportedSchemaError(`the JSON Schema keyword ${pyReprStr(keyword)} is not supported by this port`);
    if (keyword === "type") {
      const types = Array.isArray(value) ? value : [value];
      for (const type of types)
        if (typeof type !== "string" || !TYPES.has(type))
          throw new UnsupportedSchemaError(`${reprSchemaValue(value)} is not valid under any of the given schemas`);
    } else if (keyword === "properties" && isObject(value)) {
      for (const sub of Object.values(value)) checkSchema(sub);
    } else if (keyword === "items") {
      checkSchema(value);
    }
  }
}

/** The first error jsonschema's `validate` raises, in the schema's keyword order; undefined when the instance is valid. */
export function firstError(instance: unknown, schema: unknown): string | undefined {
  if (schema === true) return undefined;
  if (schema === false) return `False schema does not allow ${pyRepr(instance)}`;
  if (!isObject(schema)) return undefined;
  for (const [keyword, value] of Object.entries(schema)) {
    let error: string | undefined;
    if (keyword === "type") {
      const types = Array.isArray(value) ? value.map(String) : [String(value)];
      if (!types.some((type) => isType(instance, type))) error = `${pyRepr(instance)} is not of type ${types.map(pyReprStr).join(", ")}`;
    } else if (keyword === "properties" && isObject(instance) && isObject(value)) {
      for (const [name, sub] of Object.entries(value)) {
        if (!Object.hasOwn(instance, name)) continue;
        error = firstError(instance[name], sub);
        if (error) break;
      }
    } else if (keyword === "required" && isObject(instance) && Array.isArray(value)) {
      const missing = value.find((name) => typeof name === "string" && !Object.hasOwn(instance, name));
      if (missing !== undefined) error = `${pyReprStr(String(missing))} is a required property`;
    } else if (keyword === "enum" && Array.isArray(value)) {
      if (!value.some((each) => equal(each, instance))) error = `${pyRepr(instance)} is not one of ${reprSchemaValue(value)}`;
    } else if (keyword === "items" && Array.isArray(instance)) {
      for (const item of instance) {
        error = firstError(item, value);
        if (error) break;
      }
    }
    if (error) return error;
  }
  return undefined;
}

/** `validator_for(schema)`, `check_schema`, then `validate`: throws SchemaValidationError with jsonschema's message. */
export function validate(instance: unknown, schema: unknown): void {
  checkSchema(schema);
  const error = firstError(instance, schema);
  if (error !== undefined) throw new SchemaValidationError(error);
}

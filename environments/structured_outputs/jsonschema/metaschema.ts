// check_schema: the Draft 2020-12 metaschema's constraints on keyword values (and `pattern`s that Python's re must compile).
import { pyRegex } from "../python/regex.js";
import { PyError, isDict, pyRepr, schemaEqual, type PyValue } from "../python/value.js";

const SIMPLE_TYPES = new Set(["array", "boolean", "integer", "null", "number", "object", "string"]);
const ANCHOR = /^[A-Za-z_][-A-Za-z0-9._]*$/;

function fail(message: string): never {
  throw new PyError("SchemaError", message);
}

function isRegex(pattern: string): boolean {
  try {
    pyRegex(pattern);
    return true;
  } catch {
    return false;
  }
}

const isNumber = (v: PyValue): v is number => typeof v === "number";
const unique = (values: PyValue[]) => values.every((a, i) => values.slice(i + 1).every((b) => !schemaEqual(a, b)));

function string(value: PyValue): void {
  if (typeof value !== "string") fail(`${pyRepr(value)} is not of type 'string'`);
}

function matching(regex: RegExp): (value: PyValue) => void {
  return (value) => {
    string(value);
    if (!regex.test(value as string)) fail(`${pyRepr(value)} does not match ${pyRepr(regex.source)}`);
  };
}

function number(value: PyValue): void {
  if (!isNumber(value)) fail(`${pyRepr(value)} is not of type 'number'`);
}

function nonNegativeInteger(value: PyValue): void {
  if (!isNumber(value) || !Number.isInteger(value)) fail(`${pyRepr(value)} is not of type 'integer'`);
  if (value < 0) fail(`${pyRepr(value)} is less than the minimum of 0`);
}

function boolean(value: PyValue): void {
  if (typeof value !== "boolean") fail(`${pyRepr(value)} is not of type 'boolean'`);
}

function array(value: PyValue, nonEmpty = false): PyValue[] {
  if (!Array.isArray(value)) fail(`${pyRepr(value)} is not of type 'array'`);
  if (nonEmpty && value.length === 0) fail("[] should be non-empty");
  return value;
}

function stringArray(value: PyValue): void {
  const items = array(value);
  items.forEach(string);
  if (!unique(items)) fail(`${pyRepr(value)} has non-unique elements`);
}

function schemaMap(value: PyValue): void {
  if (!isDict(value)) fail(`${pyRepr(value)} is not of type 'object'`);
  for (const sub of value.values()) checkSchema(sub);
}

function type(value: PyValue): void {
  const ok = typeof value === "string" ? SIMPLE_TYPES.has(value) : Array.isArray(value) && value.length > 0 && unique(value) && value.every((t) => typeof t === "string" && SIMPLE_TYPES.has(t));
  if (!ok) fail(`${pyRepr(value)} is not valid under any of the given schemas`);
}

function regex(value: PyValue): void {
  string(value);
  if (!isRegex(value as string)) fail(`${pyRepr(value)} is not a 'regex'`);
}

// Keyword → the constraint the 2020-12 metaschema (core, applicator, unevaluated, validation, meta-data,
// format-annotation, content vocabularies, plus its legacy "definitions"/"dependencies") puts on its value.
const RULES: Record<string, (value: PyValue) => void> = {
  $id: matching(/^[^#]*#?$/),
  $schema: string,
  $ref: string,
  $dynamicRef: string,
  $anchor: matching(ANCHOR),
  $dynamicAnchor: matching(ANCHOR),
  $comment: string,
  $vocabulary: (value) => {
    if (!isDict(value)) fail(`${pyRepr(value)} is not of type 'object'`);
    for (const flag of value.values()) boolean(flag);
  },
  $defs: schemaMap,
  definitions: schemaMap,
  properties: schemaMap,
  dependentSchemas: schemaMap,
  patternProperties: (value) => {
    schemaMap(value);
    for (const key of (value as Map<PyValue, PyValue>).keys()) regex(key);
  },
  dependencies: (value) => {
    if (!isDict(value)) fail(`${pyRepr(value)} is not of type 'object'`);
    for (const sub of value.values()) {
      if (Array.isArray(sub)) stringArray(sub);
      else checkSchema(sub);
    }
  },
  prefixItems: (value) => array(value, true).forEach(checkSchema),
  allOf: (value) => array(value, true).forEach(checkSchema),
  anyOf: (value) => array(value, true).forEach(checkSchema),
  oneOf: (value) => array(value, true).forEach(checkSchema),
  type,
  enum: (value) => void array(value),
  examples: (value) => void array(value),
  multipleOf: (value) => {
    number(value);
    if ((value as number) <= 0) fail(`${pyRepr(value)} is less than or equal to the minimum of 0`);
  },
  pattern: regex,
  required: stringArray,
  dependentRequired: (value) => {
    if (!isDict(value)) fail(`${pyRepr(value)} is not of type 'object'`);
    for (const sub of value.values()) stringArray(sub);
  },
};
for (const keyword of ["items", "contains", "additionalProperties", "propertyNames", "if", "then", "else", "not", "unevaluatedItems", "unevaluatedProperties", "contentSchema"]) {
  RULES[keyword] = checkSchema;
}
for (const keyword of ["maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum"]) RULES[keyword] = number;
for (const keyword of ["maxLength", "minLength", "maxItems", "minItems", "maxContains", "minContains", "maxProperties", "minProperties"]) {
  RULES[keyword] = nonNegativeInteger;
}
for (const keyword of ["uniqueItems", "deprecated", "readOnly", "writeOnly"]) RULES[keyword] = boolean;
for (const keyword of ["title", "description", "format", "contentEncoding", "contentMediaType"]) RULES[keyword] = string;

/** Throws PyError("SchemaError") where jsonschema's check_schema would; unknown keywords are annotations. */
export function checkSchema(schema: PyValue): void {
  if (typeof schema === "boolean") return;
  if (!isDict(schema)) fail(`${pyRepr(schema)} is not of type 'object', 'boolean'`);
  for (const [keyword, value] of schema) {
    const rule = typeof keyword === "string" && Object.hasOwn(RULES, keyword) ? RULES[keyword] : undefined;
    rule?.(value);
  }
}

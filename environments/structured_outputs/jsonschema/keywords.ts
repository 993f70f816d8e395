// Draft 2020-12 keywords as jsonschema 4.25 implements them (jsonschema/_keywords.py), on Python values.
import { pySearch, searchKey } from "../python/regex.js";
import { PyError, isDict, pyRepr, schemaEqual, type PyDict, type PyKey, type PyValue } from "../python/value.js";
import { evaluatedItemIndexes, evaluatedPropertyKeys } from "./evaluated.js";
import type { SchemaError, Validator } from "./validator.js";

type Keyword = (v: Validator, value: PyValue, instance: PyValue, schema: PyDict) => Iterable<SchemaError>;

/** An error of the keyword being checked; descend() fills in the keyword, instance and schema (jsonschema's error._set). */
const error = (message: string, context?: SchemaError[]): SchemaError => ({ message, path: [], context });

/** Draft 2020-12's type checker: bool is not a number, 1.0 is an integer, dates and tuples are nothing. */
export function isType(instance: PyValue, type: PyValue): boolean {
  switch (type) {
    case "array":
      return Array.isArray(instance);
    case "boolean":
      return typeof instance === "boolean";
    case "integer":
      return typeof instance === "number" && Number.isInteger(instance);
    case "null":
      return instance === null;
    case "number":
      return typeof instance === "number";
    case "object":
      return isDict(instance);
    case "string":
      return typeof instance === "string";
    default:
      throw new PyError("UnknownType", `Unknown type ${pyRepr(type)}`);
  }
}

const pyLen = (text: string) => [...text].length;
const num = (value: PyValue) => value as number;
const list = (value: PyValue) => value as PyValue[];
const dict = (value: PyValue) => value as PyDict;

/** Exact x / d is an integer, for the overflow case jsonschema hands to fractions.Fraction. */
function exactMultiple(x: number, d: number): boolean {
  const fraction = (n: number): [bigint, bigint] => {
    let den = 1n;
    while (!Number.isInteger(n)) {
      n *= 2;
      den *= 2n;
    }
    return [BigInt(n), den];
  };
  const [xn, xd] = fraction(x);
  const [dn, dd] = fraction(d);
  return (xn * dd) % (xd * dn) === 0n;
}

function* additionalProperties(v: Validator, aP: PyValue, instance: PyValue, schema: PyDict): Generator<SchemaError> {
  if (!isDict(instance)) return;
  const properties = schema.has("properties") ? dict(schema.get("properties")!) : new Map<PyKey, PyValue>();
  const patterns = schema.has("patternProperties") ? [...dict(schema.get("patternProperties")!).keys()].join("|") : "";
  const extras = [...instance.keys()].filter((key) => !properties.has(key) && !(patterns && searchKey(patterns, key)));
  if (isDict(aP)) {
    for (const extra of extras) yield* v.descend(instance.get(extra)!, aP, extra);
  } else if (aP === false && extras.length > 0) {
    const verb = extras.length === 1 ? "was" : "were";
    yield error(`Additional properties are not allowed (${extras.map((k) => pyRepr(k)).join(", ")} ${verb} unexpected)`);
  }
}

function* items(v: Validator, value: PyValue, instance: PyValue, schema: PyDict): Generator<SchemaError> {
  if (!Array.isArray(instance)) return;
  const prefix = schema.has("prefixItems") ? list(schema.get("prefixItems")!).length : 0;
  if (instance.length <= prefix) return;
  if (value === false) {
    const extra = instance.length - prefix;
    const rest = extra === 1 ? instance[prefix]! : instance.slice(prefix);
    yield error(`Expected at most ${prefix} item${prefix === 1 ? "" : "s"} but found ${extra} extra: ${pyRepr(rest)}`);
    return;
  }
  for (let i = prefix; i < instance.length; i++) yield* v.descend(instance[i]!, value, i);
}

function* contains(v: Validator, value: PyValue, instance: PyValue, schema: PyDict): Generator<SchemaError> {
  if (!Array.isArray(instance)) return;
  const min = schema.has("minContains") ? num(schema.get("minContains")!) : 1;
  const max = schema.has("maxContains") ? num(schema.get("maxContains")!) : instance.length;
  let matches = 0;
  for (const each of instance) {
    if (v.isValid(each, value) && ++matches > max) {
      yield error(`Too many items match the given schema (expected at most ${max})`);
      return;
    }
  }
  if (matches < min) {
    yield matches === 0
      ? error(`${pyRepr(instance)} does not contain items matching the given schema`)
      : error(`Too few items match the given schema (expected at least ${min} but only ${matches} matched)`);
  }
}

function* multipleOf(_v: Validator, value: PyValue, instance: PyValue): Generator<SchemaError> {
  if (typeof instance !== "number") return;
  const d = num(value);
  let failed: boolean;
  if (Number.isInteger(d)) failed = instance % d !== 0; // int divisor: `instance % dB` (NaN counts as failed, as in Python)
  else {
    const quotient = instance / d;
    if (Number.isNaN(quotient)) throw new PyError("ValueError", "cannot convert float NaN to integer");
    if (!Number.isFinite(quotient)) {
      if (!Number.isFinite(instance)) throw new PyError("OverflowError", "cannot convert Infinity to integer ratio");
      failed = !exactMultiple(instance, d);
    } else failed = Math.trunc(quotient) !== quotient;
  }
  if (failed) yield error(`${pyRepr(instance)} is not a multiple of ${pyRepr(d)}`);
}

/** The errors of each branch up to the first valid one; undefined when one is valid. Kept as context for best_match. */
function branchErrors(v: Validator, subs: PyValue[], instance: PyValue): [SchemaError[] | undefined, number] {
  const all: SchemaError[] = [];
  for (let i = 0; i < subs.length; i++) {
    const errors = [...v.descend(instance, subs[i]!)];
    if (errors.length === 0) return [undefined, i];
    all.push(...errors);
  }
  return [all, -1];
}

function* anyOf(v: Validator, value: PyValue, instance: PyValue): Generator<SchemaError> {
  const [context] = branchErrors(v, list(value), instance);
  if (context) yield error(`${pyRepr(instance)} is not valid under any of the given schemas`, context);
}

function* oneOf(v: Validator, value: PyValue, instance: PyValue): Generator<SchemaError> {
  const subs = list(value);
  const [context, first] = branchErrors(v, subs, instance);
  if (context) {
    yield error(`${pyRepr(instance)} is not valid under any of the given schemas`, context);
    return;
  }
  const more = subs.slice(first + 1).filter((sub) => v.isValid(instance, sub));
  if (more.length > 0) yield error(`${pyRepr(instance)} is valid under each of ${[...more, subs[first]!].map((x) => pyRepr(x)).join(", ")}`);
}

function* ref(v: Validator, value: PyValue, instance: PyValue): Generator<SchemaError> {
  const resolved = v.resolver.lookup(value as string, v.base);
  yield* v.at(resolved.base).descend(instance, resolved.schema);
}

function* unevaluatedProperties(v: Validator, value: PyValue, instance: PyValue, schema: PyDict): Generator<SchemaError> {
  if (!isDict(instance)) return;
  const evaluated = evaluatedPropertyKeys(v, instance, schema);
  const bad = [...instance.keys()].filter((key) => !evaluated.has(key) && !v.isValid(instance.get(key)!, value));
  if (bad.length === 0) return;
  const verb = bad.length === 1 ? "was" : "were";
  const what = value === false ? "not allowed" : "not valid under the given schema";
  yield error(`Unevaluated properties are ${what} (${bad.map((k) => pyRepr(k)).join(", ")} ${verb} unexpected)`);
}

function* unevaluatedItems(v: Validator, _value: PyValue, instance: PyValue, schema: PyDict): Generator<SchemaError> {
  if (!Array.isArray(instance)) return;
  const evaluated = evaluatedItemIndexes(v, instance, schema);
  const bad = instance.filter((_item, i) => !evaluated.has(i));
  if (bad.length > 0) yield error(`Unevaluated items are not allowed (${bad.map((x) => pyRepr(x)).join(", ")} ${bad.length === 1 ? "was" : "were"} unexpected)`);
}

export const KEYWORDS = new Map<string, Keyword>([
  ["$ref", ref],
  ["$dynamicRef", ref],
  ["additionalProperties", additionalProperties],
  ["items", items],
  ["contains", contains],
  ["multipleOf", multipleOf],
  ["anyOf", anyOf],
  ["oneOf", oneOf],
  ["unevaluatedProperties", unevaluatedProperties],
  ["unevaluatedItems", unevaluatedItems],
  ["const", function* (_v, value, instance) {
    if (!schemaEqual(instance, value)) yield error(`${pyRepr(value)} was expected`);
  }],
  ["enum", function* (_v, value, instance) {
    if (!list(value).some((each) => schemaEqual(each, instance))) yield error(`${pyRepr(instance)} is not one of ${pyRepr(value)}`);
  }],
  ["type", function* (_v, value, instance) {
    const types = typeof value === "string" ? [value] : list(value);
    if (!types.some((t) => isType(instance, t))) yield error(`${pyRepr(instance)} is not of type ${types.map((x) => pyRepr(x)).join(", ")}`);
  }],
  ["exclusiveMinimum", function* (_v, value, instance) {
    if (typeof instance === "number" && instance <= num(value)) yield error(`${pyRepr(instance)} is less than or equal to the minimum of ${pyRepr(value)}`);
  }],
  ["exclusiveMaximum", function* (_v, value, instance) {
    if (typeof instance === "number" && instance >= num(value)) yield error(`${pyRepr(instance)} is greater than or equal to the maximum of ${pyRepr(value)}`);
  }],
  ["minimum", function* (_v, value, instance) {
    if (typeof instance === "number" && instance < num(value)) yield error(`${pyRepr(instance)} is less than the minimum of ${pyRepr(value)}`);
  }],
  ["maximum", function* (_v, value, instance) {
    if (typeof instance === "number" && instance > num(value)) yield error(`${pyRepr(instance)} is greater than the maximum of ${pyRepr(value)}`);
  }],
  ["minItems", function* (_v, value, instance) {
    if (Array.isArray(instance) && instance.length < num(value)) yield error(`${pyRepr(instance)} ${num(value) === 1 ? "should be non-empty" : "is too short"}`);
  }],
  ["maxItems", function* (_v, value, instance) {
    if (Array.isArray(instance) && instance.length > num(value)) yield error(`${pyRepr(instance)} ${num(value) === 0 ? "is expected to be empty" : "is too long"}`);
  }],
  ["uniqueItems", function* (_v, value, instance) {
    if (value !== true || !Array.isArray(instance)) return;
    if (instance.some((a, i) => instance.slice(i + 1).some((b) => schemaEqual(a, b)))) yield error(`${pyRepr(instance)} has non-unique elements`);
  }],
  ["pattern", function* (_v, value, instance) {
    if (typeof instance === "string" && !pySearch(value as string, instance)) yield error(`${pyRepr(instance)} does not match ${pyRepr(value)}`);
  }],
  ["minLength", function* (_v, value, instance) {
    if (typeof instance === "string" && pyLen(instance) < num(value)) yield error(`${pyRepr(instance)} ${num(value) === 1 ? "should be non-empty" : "is too short"}`);
  }],
  ["maxLength", function* (_v, value, instance) {
    if (typeof instance === "string" && pyLen(instance) > num(value)) yield error(`${pyRepr(instance)} ${num(value) === 0 ? "is expected to be empty" : "is too long"}`);
  }],
  ["dependentRequired", function* (_v, value, instance) {
    if (!isDict(instance)) return;
    for (const [property, needed] of dict(value)) {
      if (!instance.has(property)) continue;
      for (const each of list(needed)) if (!instance.has(each as PyKey)) yield error(`${pyRepr(each)} is a dependency of ${pyRepr(property)}`);
    }
  }],
  ["dependentSchemas", function* (v, value, instance) {
    if (!isDict(instance)) return;
    for (const [property, sub] of dict(value)) if (instance.has(property)) yield* v.descend(instance, sub);
  }],
  ["properties", function* (v, value, instance) {
    if (!isDict(instance)) return;
    for (const [property, sub] of dict(value)) if (instance.has(property)) yield* v.descend(instance.get(property)!, sub, property);
  }],
  ["patternProperties", function* (v, value, instance) {
    if (!isDict(instance)) return;
    for (const [pattern, sub] of dict(value)) {
      for (const [key, each] of instance) if (searchKey(pattern as string, key)) yield* v.descend(each, sub, key);
    }
  }],
  ["propertyNames", function* (v, value, instance) {
    if (!isDict(instance)) return;
    for (const key of instance.keys()) yield* v.descend(key, value);
  }],
  ["required", function* (_v, value, instance) {
    if (!isDict(instance)) return;
    for (const property of list(value)) if (!instance.has(property as PyKey)) yield error(`${pyRepr(property)} is a required property`);
  }],
  ["minProperties", function* (_v, value, instance) {
    if (isDict(instance) && instance.size < num(value)) yield error(`${pyRepr(instance)} ${num(value) === 1 ? "should be non-empty" : "does not have enough properties"}`);
  }],
  ["maxProperties", function* (_v, value, instance) {
    if (isDict(instance) && instance.size > num(value)) yield error(`${pyRepr(instance)} ${num(value) === 0 ? "is expected to be empty" : "has too many properties"}`);
  }],
  ["allOf", function* (v, value, instance) {
    for (const sub of list(value)) yield* v.descend(instance, sub);
  }],
  ["not", function* (v, value, instance) {
    if (v.isValid(instance, value)) yield error(`${pyRepr(instance)} should not be valid under ${pyRepr(value)}`);
  }],
  ["if", function* (v, value, instance, schema) {
    if (v.isValid(instance, value)) {
      if (schema.has("then")) yield* v.descend(instance, schema.get("then")!);
    } else if (schema.has("else")) yield* v.descend(instance, schema.get("else")!);
  }],
  ["prefixItems", function* (v, value, instance) {
    if (!Array.isArray(instance)) return;
    const subs = list(value);
    for (let i = 0; i < Math.min(subs.length, instance.length); i++) yield* v.descend(instance[i]!, subs[i]!, i);
  }],
]);

// The schema as NeMo Gym's validator reads it, rewritten for @cfworker/json-schema: Python patterns translated,
// and keywords where the two differ turned into ones the library applies as jsonschema 4.x would.
import { UnsupportedPythonRegex, buildRegExp, isPythonRegexFailure, translatePythonRegex } from "../../sdk/python/regex.js";
import { PyError, pyRepr } from "../python/value.js";
import { OPAQUE, type Json, type JsonObject } from "./json.js";

const IN_VALUE = [
  "additionalProperties",
  "unevaluatedProperties",
  "items",
  "contains",
  "propertyNames",
  "not",
  "if",
  "then",
  "else",
  "unevaluatedItems",
  "contentSchema",
];
const IN_ARRAY = ["allOf", "anyOf", "oneOf", "prefixItems"];
const IN_VALUES = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"];
// Keywords jsonschema's Draft 2020-12 validator does not apply and the library would: `format` (never asserted by
// NeMo Gym), the legacy `dependencies`, 2019-09's recursive references, and draft-4's `id`.
const IGNORED = ["format", "dependencies", "$recursiveRef", "$recursiveAnchor", "id"];

const isObject = (value: Json | undefined): value is JsonObject => value !== null && typeof value === "object" && !Array.isArray(value);

/** Calls `visit` on every schema object, where 2020-12 keeps subschemas (never inside enum, const or unknown keywords). */
function eachSchema(schema: Json, visit: (schema: JsonObject) => void): void {
  if (!isObject(schema)) return;
  visit(schema);
  for (const keyword of IN_VALUE) if (keyword in schema) eachSchema(schema[keyword]!, visit);
  for (const keyword of IN_ARRAY) {
    const list = schema[keyword];
    if (Array.isArray(list)) for (const sub of list) eachSchema(sub, visit);
  }
  for (const keyword of IN_VALUES) {
    const map = schema[keyword];
    if (isObject(map)) for (const sub of Object.values(map)) eachSchema(sub, visit);
  }
}

// RegExp modifiers, (?i:…), exist in workerd's V8 but not in Node 20's; the library compiles patterns with "u" only.
const MODIFIERS = (() => {
  try {
    // biome-ignore lint/complexity/useRegexLiterals: as a literal this would be a syntax error where modifiers are unsupported; it probes for them
    return new RegExp("(?i:a)", "u").test("A");
  } catch {
    // The pattern is a SyntaxError exactly where modifiers are unsupported: that is the answer to the probe.
    return false;
  }
})();

/** A Python pattern as JS source for the library's `new RegExp(source, "u")`; SchemaError where re.compile fails. */
function jsPattern(pattern: string): string {
  try {
    const translated = translatePythonRegex(pattern);
    let source = translated.source;
    if (translated.ignoreCase) {
      if (!MODIFIERS) throw new UnsupportedPythonRegex("(?i) needs RegExp modifiers, which this runtime lacks");
      source = `(?i:${source})`;
    }
    buildRegExp(source, "u", pattern);
    return source;
  } catch (error) {
    if (!isPythonRegexFailure(error)) throw error;
    // Valid Python the JS engine cannot follow fails like an invalid pattern: a known gap, not a guess.
    if (error instanceof UnsupportedPythonRegex) throw new PyError("PatternError", `unsupported in this port: ${error.message}`);
    throw new PyError("SchemaError", `${pyRepr(pattern)} is not a 'regex'`);
  }
}

/** `pattern` values and `patternProperties` keys translated in place (before the metaschema check, as its regex format). */
export function translatePatterns(schema: Json): void {
  eachSchema(schema, (node) => {
    if (typeof node.pattern === "string") node.pattern = jsPattern(node.pattern);
    const patterns = node.patternProperties;
    if (isObject(patterns)) {
      const translated = Object.create(null) as JsonObject;
      for (const [key, sub] of Object.entries(patterns)) translated[jsPattern(key)] = sub;
      node.patternProperties = translated;
    }
  });
}

/** jsonschema's multipleOf: `instance % d` for an int divisor, else float division whose quotient must be integral. */
function pythonMultiple(x: number, d: number): boolean {
  if (Number.isInteger(d)) return x % d === 0;
  const quotient = x / d;
  // NaN raises ValueError and an infinite instance OverflowError in Python: either way the answer fails.
  if (!Number.isFinite(quotient)) return Number.isFinite(x) && Number.isFinite(d) && exactMultiple(x, d);
  return Math.trunc(quotient) === quotient;
}

/** Exact x / d is an integer, for the overflow case jsonschema hands to fractions.Fraction. */
function exactMultiple(x: number, d: number): boolean {
  const fraction = (n: number): [bigint, bigint] => {
    let den = 1n;
    for (; !Number.isInteger(n); n *= 2) den *= 2n;
    return [BigInt(n), den];
  };
  const [xn, xd] = fraction(x);
  const [dn, dd] = fraction(d);
  return (xn * dd) % (xd * dn) === 0n;
}

function numbersIn(value: Json, into: Set<number>): Set<number> {
  if (typeof value === "number") into.add(value);
  else if (Array.isArray(value)) for (const item of value) numbersIn(item, into);
  else if (isObject(value)) for (const item of Object.values(value)) numbersIn(item, into);
  return into;
}

function allOf(node: JsonObject, schema: JsonObject): void {
  node.allOf = [...(Array.isArray(node.allOf) ? node.allOf : []), schema];
}

/**
 * After the metaschema check: drop what jsonschema does not apply; replace each `multipleOf` (the library's is
 * exact decimal arithmetic, jsonschema's is float division: 19.99 is not a multiple of 0.01 there) by "not one of
 * the instance's numbers that fail Python's test"; keep dates, bytes and tuples out of `type: object`, and
 * infinity out of `type: integer`.
 */
export function forValidation(schema: Json, instance: Json): void {
  const numbers = [...numbersIn(instance, new Set())];
  const infinite = numbers.filter((x) => x === Infinity || x === -Infinity);
  eachSchema(schema, (node) => {
    for (const keyword of IGNORED) delete node[keyword];
    if (typeof node.multipleOf === "number") {
      const divisor = node.multipleOf;
      delete node.multipleOf;
      const failing = numbers.filter((x) => !pythonMultiple(x, divisor));
      if (failing.some((x) => !Number.isNaN(x))) allOf(node, { not: { enum: failing.filter((x) => !Number.isNaN(x)) } });
      // No enum holds NaN (NaN !== NaN); a NaN is the one number that is not >= -Infinity.
      if (failing.some(Number.isNaN)) allOf(node, { not: { type: "number", exclusiveMaximum: -Infinity } });
    }
    // The library has no $dynamicRef; within one schema resource it resolves as a $ref to the $dynamicAnchor.
    if (typeof node.$dynamicRef === "string") {
      if (node.$ref === undefined) node.$ref = node.$dynamicRef;
      else allOf(node, { $ref: node.$dynamicRef });
      delete node.$dynamicRef;
    }
    if (typeof node.$dynamicAnchor === "string") node.$anchor ??= node.$dynamicAnchor;
    const types = typeof node.type === "string" ? [node.type] : Array.isArray(node.type) ? node.type : [];
    if (types.includes("object")) allOf(node, { propertyNames: { not: { const: OPAQUE } } });
    // The library counts infinity as an integer (Infinity % 1 is NaN); Python's float.is_integer() does not.
    if (infinite.length > 0 && types.includes("integer") && !types.includes("number")) allOf(node, { not: { enum: infinite } });
  });
}

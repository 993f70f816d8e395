// jsonschema's find_evaluated_{property_keys,item_indexes}_by_schema: what unevaluatedProperties/Items treat as seen.
import { isDict, type PyDict, type PyKey, type PyValue } from "../python/value.js";
import { searchKey } from "../python/regex.js";
import type { Validator } from "./validator.js";

/** The schema a $ref / $dynamicRef points at, and a validator positioned at its resource. */
function followRefs(v: Validator, schema: PyDict): [Validator, PyValue][] {
  const targets: [Validator, PyValue][] = [];
  for (const keyword of ["$ref", "$dynamicRef"]) {
    const ref = schema.get(keyword);
    if (typeof ref !== "string") continue;
    const resolved = v.resolver.lookup(ref, v.base);
    targets.push([v.at(resolved.base), resolved.schema]);
  }
  return targets;
}

function subschemas(schema: PyDict, keyword: string): PyValue[] {
  const value = schema.get(keyword);
  return Array.isArray(value) ? value : [];
}

export function evaluatedPropertyKeys(v: Validator, instance: PyDict, schema: PyValue): Set<PyKey> {
  const keys = new Set<PyKey>();
  if (!isDict(schema)) return keys;
  const add = (more: Iterable<PyKey>) => {
    for (const key of more) keys.add(key);
  };
  for (const [target, resolved] of followRefs(v, schema)) add(evaluatedPropertyKeys(target, instance, resolved));

  const properties = schema.get("properties");
  if (isDict(properties)) add([...properties.keys()].filter((key) => instance.has(key)));
  // Every key (not only the extra ones) whose value the subschema accepts, as jsonschema 4.25 counts them.
  for (const keyword of ["additionalProperties", "unevaluatedProperties"]) {
    if (!schema.has(keyword)) continue;
    const sub = schema.get(keyword)!;
    add([...instance].filter(([, value]) => v.isValid(value, sub)).map(([key]) => key));
  }
  const patterns = schema.get("patternProperties");
  if (isDict(patterns)) {
    for (const key of instance.keys()) for (const pattern of patterns.keys()) if (searchKey(pattern as string, key)) keys.add(key);
  }
  const dependent = schema.get("dependentSchemas");
  if (isDict(dependent)) {
    for (const [property, sub] of dependent) if (instance.has(property)) add(evaluatedPropertyKeys(v, instance, sub));
  }
  for (const keyword of ["allOf", "oneOf", "anyOf"]) {
    for (const sub of subschemas(schema, keyword)) if (v.isValid(instance, sub)) add(evaluatedPropertyKeys(v, instance, sub));
  }
  if (schema.has("if")) {
    if (v.isValid(instance, schema.get("if")!)) {
      add(evaluatedPropertyKeys(v, instance, schema.get("if")!));
      if (schema.has("then")) add(evaluatedPropertyKeys(v, instance, schema.get("then")!));
    } else if (schema.has("else")) add(evaluatedPropertyKeys(v, instance, schema.get("else")!));
  }
  return keys;
}

export function evaluatedItemIndexes(v: Validator, instance: PyValue[], schema: PyValue): Set<number> {
  const indexes = new Set<number>();
  if (!isDict(schema)) return indexes;
  const range = (n: number) => Array.from({ length: n }, (_, i) => i);
  if (schema.has("items")) return new Set(range(instance.length));
  const add = (more: Iterable<number>) => {
    for (const i of more) indexes.add(i);
  };
  for (const [target, resolved] of followRefs(v, schema)) add(evaluatedItemIndexes(target, instance, resolved));
  const prefix = schema.get("prefixItems");
  if (Array.isArray(prefix)) add(range(prefix.length));
  if (schema.has("if")) {
    if (v.isValid(instance, schema.get("if")!)) {
      add(evaluatedItemIndexes(v, instance, schema.get("if")!));
      if (schema.has("then")) add(evaluatedItemIndexes(v, instance, schema.get("then")!));
    } else if (schema.has("else")) add(evaluatedItemIndexes(v, instance, schema.get("else")!));
  }
  for (const keyword of ["contains", "unevaluatedItems"]) {
    if (!schema.has(keyword)) continue;
    const sub = schema.get(keyword)!;
    instance.forEach((item, i) => {
      if (v.isValid(item, sub)) indexes.add(i);
    });
  }
  for (const keyword of ["allOf", "oneOf", "anyOf"]) {
    for (const sub of subschemas(schema, keyword)) if (v.isValid(instance, sub)) add(evaluatedItemIndexes(v, instance, sub));
  }
  return indexes;
}

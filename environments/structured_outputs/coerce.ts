// NeMo Gym's coerce_xml_types / coerce_csv_types: text from XML and CSV turned into the types the schema asks for.
import { pyFloat, pyInt } from "./python/numbers.js";
import { PyError, isDict, pyTypeName, type PyDict, type PyKey, type PyValue } from "./python/value.js";

/** dict.get(key, default) — AttributeError on anything that is not a dict, as Python raises. */
function get(value: PyValue, key: PyKey, fallback: PyValue): PyValue {
  if (!isDict(value)) throw new PyError("AttributeError", `'${pyTypeName(value)}' object has no attribute 'get'`);
  return value.has(key) ? value.get(key)! : fallback;
}

/** `key in container` then `container[key]` for a schema's "properties" of any JSON type. */
function propertySchema(properties: PyValue, key: PyKey): PyValue | undefined {
  if (isDict(properties)) return properties.has(key) ? properties.get(key)! : undefined;
  const found =
    typeof properties === "string"
      ? typeof key === "string" && properties.includes(key)
      : Array.isArray(properties)
        ? properties.includes(key as PyValue)
        : undefined;
  if (found === undefined) throw new PyError("TypeError", `argument of type '${pyTypeName(properties)}' is not iterable`);
  // Found in a list or str: indexing it with a str key is a TypeError too.
  if (found) throw new PyError("TypeError", `${pyTypeName(properties)} indices must be integers or slices, not str`);
  return undefined;
}

/** int()/float()/bool-word conversion of one string; on failure the text is kept for validation to reject. */
function convert(text: string, type: PyValue): PyValue {
  try {
    if (type === "integer") return pyInt(text);
    if (type === "number") return pyFloat(text);
  } catch (error) {
    if (error instanceof PyError && error.pyType === "ValueError") return text;
    throw error;
  }
  if (type === "boolean") {
    const lower = text.toLowerCase();
    if (lower === "true" || lower === "1") return true;
    if (lower === "false" || lower === "0") return false;
  }
  return text;
}

/**
 * coerce_xml_types: walks xmltodict's strings alongside the schema. Only a schema whose "type" is a single
 * string is followed (["integer", "null"] coerces nothing); an array position unwraps xmltodict's single-key
 * wrapper dict and turns a lone value into a one-item list.
 */
export function coerceXmlTypes(data: PyValue, schema: PyValue): PyValue {
  if (!isDict(schema) || !schema.has("type")) return data;
  const type = schema.get("type")!;
  if (type === "object" && isDict(data)) {
    const properties = get(schema, "properties", new Map());
    const coerced: PyDict = new Map();
    for (const [key, value] of data) {
      const sub = propertySchema(properties, key);
      coerced.set(key, sub === undefined ? value : coerceXmlTypes(value, sub));
    }
    return coerced;
  }
  if (type === "array") {
    const itemsSchema = get(schema, "items", new Map());
    let items = data;
    if (isDict(items) && items.size === 1) items = [...items.values()][0]!;
    if (!Array.isArray(items)) items = items === null ? [] : [items];
    return items.map((item) => coerceXmlTypes(item, itemsSchema));
  }
  // An empty tag is None; only a string position turns it into "" (0 and False are not "empty").
  if (data === null && type === "string") return "";
  if (typeof data === "string") return convert(data, type);
  return data;
}

/** _coerce_csv_scalar: a type list tries each non-null type in order and keeps the first non-string result. */
function coerceCsvScalar(value: PyValue, type: PyValue): PyValue {
  if (Array.isArray(type)) {
    if ((value === null || value === "") && type.includes("null")) return null;
    for (const t of type) {
      if (t === "null") continue;
      const result = coerceCsvScalar(value, t);
      if (typeof result !== "string" || t === "string") return result;
    }
    return value;
  }
  if (value === null || value === "") return value;
  // Extra cells (a list under the key None) only ever meet type "string"; a list has no .lower() either.
  if (typeof value !== "string") return value;
  return convert(value, type);
}

/** coerce_csv_types: every cell of every row against items.properties (or the schema's own properties). */
export function coerceCsvTypes(rows: PyValue[], schema: PyValue): PyValue[] {
  const itemsSchema = get(schema, "items", schema);
  const properties = get(itemsSchema, "properties", new Map());
  return rows.map((row) => {
    const coerced: PyDict = new Map();
    for (const [key, value] of row as PyDict) {
      const propSchema = get(properties, key, new Map());
      coerced.set(key, coerceCsvScalar(value, get(propSchema, "type", "string")));
    }
    return coerced;
  });
}

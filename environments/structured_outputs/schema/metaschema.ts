// check_schema: the user's schema against the Draft 2020-12 metaschema, validated by @cfworker/json-schema.
import { Validator, type Schema } from "@cfworker/json-schema";
// The Draft 2020-12 metaschema and its seven vocabulary metaschemas: the spec's own documents, as the Python
// `jsonschema-specifications` package ships them to NeMo Gym's validator (data, not code).
import documents from "./draft-2020-12.json";
import { PyError } from "../python/value.js";
import { describeFailure, type Json } from "./json.js";

const ROOT = "https://json-schema.org/draft/2020-12/schema";

/**
 * The library has no $dynamicRef; in the metaschema every `{"$dynamicRef": "#meta"}` means "the whole 2020-12
 * metaschema" (nothing extends it here), so it becomes a $ref to it. `format` is dropped: jsonschema's check_schema
 * asserts only "regex" without optional packages, and Python patterns are checked by our translator beforehand.
 */
function adapt(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(adapt);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    // The keyword (a string); `properties.format`, the format-annotation vocabulary's own rule, stays.
    if (key === "format" && typeof child === "string") continue;
    if (key === "$dynamicRef" && child === "#meta") out.$ref = ROOT;
    else out[key] = adapt(child);
  }
  return out;
}

let validator: Validator | undefined;

function metaschema(): Validator {
  if (validator) return validator;
  const [root, ...vocabularies] = documents.map((document) => adapt(document) as Schema);
  validator = new Validator(root!, "2020-12", true);
  for (const vocabulary of vocabularies) validator.addSchema(vocabulary);
  return validator;
}

/** Throws PyError("SchemaError") where the 2020-12 metaschema rejects the schema (its patterns already translated). */
export function checkSchema(userSchema: Json): void {
  const result = metaschema().validate(userSchema);
  if (!result.valid) throw new PyError("SchemaError", describeFailure(result.errors, userSchema));
}

// openapi_schema_validator.validate(instance, schema) as NeMo Gym calls it (OAS 3.1, Draft 2020-12), on @cfworker/json-schema.
import { Validator, type Schema } from "@cfworker/json-schema";
import { PyError, type PyValue } from "../python/value.js";
import { forValidation, translatePatterns } from "./adapt.js";
import { describeFailure, toJson } from "./json.js";
import { checkSchema } from "./metaschema.js";

/**
 * The schema is checked against the 2020-12 metaschema first (PyError "SchemaError"), `format` is never asserted,
 * patterns are Python's `re`; then the instance is validated (PyError "ValidationError"). Anything the library
 * throws (an unresolvable $ref) escapes as it does from jsonschema, and NeMo Gym scores it a validation error.
 */
export function validate(instance: PyValue, schema: PyValue): void {
  const schemaJson = toJson(schema);
  translatePatterns(schemaJson);
  checkSchema(schemaJson);
  const instanceJson = toJson(instance);
  forValidation(schemaJson, instanceJson);
  const result = new Validator(schemaJson as Schema | boolean, "2020-12", true).validate(instanceJson);
  if (!result.valid) throw new PyError("ValidationError", describeFailure(result.errors, instanceJson));
}

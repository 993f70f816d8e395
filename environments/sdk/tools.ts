// A tool's OpenAI function definition, its JSON schema derived from the zod parameters (never written twice).
import { z } from "zod";
import type { FunctionTool } from "../../protocol/index.js";

/** The OpenAI function tool the model sees for a tool. */
export function functionTool(name: string, description: string, parameters: z.ZodType): FunctionTool {
  return { type: "function", name, description, parameters: toolJsonSchema(parameters), strict: true };
}

/** The JSON schema the model sees, in the form NeMo Gym's datasets carry (strict: closed objects, `required` always present). */
export function toolJsonSchema(parameters: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(parameters) as Record<string, unknown>;
  if (schema.type === "object" && !("required" in schema)) schema.required = [];
  return schema;
}

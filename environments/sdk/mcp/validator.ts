// The MCP server's JSON Schema validator: none. The SDK validates only elicitation answers server-side, which an
// environment never asks for; its default (Ajv) compiles validators with `new Function`, which workerd forbids.
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";

export const refusedSchemaValidator: jsonSchemaValidator = {
  getValidator() {
    return () => ({ valid: false, data: undefined, errorMessage: "an environment's MCP server validates no JSON Schema (it asks for no elicitation)" });
  },
};

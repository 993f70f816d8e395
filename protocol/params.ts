// OpenAI Responses create params as NeMo Gym datasets carry them (`responses_create_params`).
import { z } from "zod";
import { Item } from "./items.js";

export const FunctionTool = z.looseObject({
  type: z.literal("function"),
  name: z.string().min(1),
  description: z.string().nullish(),
  parameters: z.record(z.string(), z.unknown()).nullish(),
  strict: z.boolean().nullish(),
});
export type FunctionTool = z.infer<typeof FunctionTool>;

/** Tools: function tools are typed; other tool kinds (web search, MCP…) pass through for the proxy to judge. */
export const Tool = z.union([FunctionTool, z.looseObject({ type: z.string() })]);
export type Tool = z.infer<typeof Tool>;

export const ResponsesCreateParams = z.looseObject({
  input: z.union([z.string(), z.array(Item)]),
  instructions: z.string().nullish(),
  tools: z.array(Tool).nullish(),
  tool_choice: z.unknown().optional(),
  parallel_tool_calls: z.boolean().nullish(),
  model: z.string().nullish(),
  temperature: z.number().nullish(),
  top_p: z.number().nullish(),
  max_output_tokens: z.number().int().positive().nullish(),
  max_tool_calls: z.number().int().nullish(),
  reasoning: z.looseObject({ effort: z.string().nullish() }).nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
  stream: z.boolean().nullish(),
});
export type ResponsesCreateParams = z.infer<typeof ResponsesCreateParams>;

export function isFunctionTool(tool: Tool): tool is FunctionTool {
  return tool.type === "function" && "name" in tool;
}

// The shapes OpenEnv's tool-calling types give what an edgegym episode has: the prompt, the tools, a tool's answer.
import type { DatasetRow, FunctionTool, Item } from "../../../protocol/index.js";
import type { OpenEnvTool } from "../../../protocol/openenv.js";

/** The row's input as the messages the model is prompted with (a string input is one user message, as NeMo Gym reads it). */
export function promptOf(row: DatasetRow): Item[] {
  const input = row.responses_create_params.input;
  return typeof input === "string" ? [{ type: "message", role: "user", content: input }] : input;
}

/** mcp_types.py Tool, from the OpenAI function tools the row (or the environment) offers the model. */
export function toolsOf(tools: readonly FunctionTool[]): OpenEnvTool[] {
  return tools.map((tool) => ({ name: tool.name, description: tool.description ?? "", input_schema: tool.parameters ?? {} }));
}

export function rowTools(row: DatasetRow): FunctionTool[] {
  const tools = (row.responses_create_params as { tools?: unknown }).tools;
  return Array.isArray(tools) ? (tools.filter((tool) => tool && typeof tool === "object" && tool.type === "function") as FunctionTool[]) : [];
}

/** mcp_environment.py's CallToolResult for a plain tool: text content, structured content, and `data` (what MCPToolClient.call_tool returns). */
export function toolResult(body: unknown): Record<string, unknown> {
  return { content: [{ type: "text", text: JSON.stringify(body) }], structured_content: { result: body }, meta: null, data: body, is_error: false };
}

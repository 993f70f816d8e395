// The agent's MCP naming mode (tool_names=mcp): the model sees the environment's tools as an MCP client harness names
// them (`mcp__<server>__<tool>`, NeMo Gym's claude_code_agent over mcp_auto_exposure), and its calls reach the bare tool.
import { mcpToolName, normalizeToolName } from "../../protocol/mcp-names.js";
import { type FunctionTool, isFunctionTool, type Tool } from "../../protocol/index.js";

/** How one rollout names the environment's tools to the model. */
export interface McpNaming {
  /** The MCP server's name: the environment's (NeMo Gym's MCPServerMetadata.server_name is the server's config name). */
  server: string;
  /** What the environment lists (its describe(), as an MCP client's tools/list sees it). */
  tools: readonly FunctionTool[];
}

/**
 * The tools the model is offered: every tool the environment lists, named `mcp__<server>__<tool>` (an MCP client offers
 * whatever tools/list answers), then the row's own tools the environment does not serve (a row's copy of a served tool
 * is the same tool, offered once under its MCP name).
 */
export function mcpOfferedTools(rowTools: readonly Tool[] | null | undefined, naming: McpNaming): Tool[] {
  const served = new Set(naming.tools.map((tool) => tool.name));
  const named = naming.tools.map((tool) => ({ ...tool, name: mcpToolName(naming.server, tool.name) }));
  const others = (rowTools ?? []).filter((tool) => !(isFunctionTool(tool) && served.has(tool.name)));
  return [...named, ...others];
}

/**
 * The bare tool a call names, or undefined when the model called a name it was not offered under this mode: only
 * `mcp__<server>__<tool>` reaches the environment (a harness has no tool by the bare name either).
 */
export function mcpCalledTool(name: string, naming: McpNaming): string | undefined {
  const bare = normalizeToolName(name, naming.server);
  return bare === name ? undefined : bare;
}

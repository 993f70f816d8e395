// MCP tool names (issue 25): `mcp__<server>__<tool>` as MCP-native agents record them, and NeMo Gym's normalization back.

/** The prefix MCP clients put before a server's name in the tool names they show a model. */
const MCP_PREFIX = "mcp__";

/** The name an MCP client shows a model for `tool` of `server`. */
export function mcpToolName(server: string, tool: string): string {
  return `${MCP_PREFIX}${server}__${tool}`;
}

/**
 * NeMo Gym's normalize_tool_name (nemo_gym/base_resources_server.py): `mcp__<server>__<tool>` → `<tool>`. With a server
 * name, only that server's prefix is stripped (robust to tool names holding `__`); without one, the first `__` after
 * the server's name splits. Any other name passes unchanged.
 */
export function normalizeToolName(name: string, serverName?: string): string {
  if (!name.startsWith(MCP_PREFIX)) return name;
  if (serverName !== undefined) {
    const prefix = mcpToolName(serverName, "");
    return name.startsWith(prefix) ? name.slice(prefix.length) : name;
  }
  const rest = name.slice(MCP_PREFIX.length);
  const split = rest.indexOf("__");
  return split === -1 ? name : rest.slice(split + 2);
}

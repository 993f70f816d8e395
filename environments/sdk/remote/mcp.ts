// A remote environment's MCP servers (its configuration's `mcpServers`): their tools beside the server's, each call made
// from where the session lives (its Durable Object, or the in-process map) and never sent to the NeMo Gym server.
import type { McpSessionRecords } from "../../../contracts/mcp.js";
import type { RemoteEnvironmentConfig } from "../../../contracts/remote.js";
import type { EnvironmentDescription, Outcome } from "../../../contracts/rpc.js";
import { secretReader } from "../context.js";
import type { McpHost } from "../mcp/sources.js";
import { caught } from "../outcome.js";
import { OPERATION_TIMEOUT_MS } from "../refusals.js";
import { describeRemote } from "./operations.js";

/** The configuration as an MCP host: its configured tools (none when they come from the rows) are its own. */
function hostOf(config: RemoteEnvironmentConfig): McpHost {
  const configured = config.tools.from === "config" ? config.tools.tools : [];
  return { name: config.name, tools: new Map(configured.map((tool) => [tool.name, tool])), mcpServers: config.mcpServers };
}

/** describe with the MCP servers' tools after the configured ones (listed over the network, so async). */
export async function describeRemoteWithSources(config: RemoteEnvironmentConfig, bindings: object): Promise<EnvironmentDescription> {
  const description = describeRemote(config);
  if (!config.mcpServers?.length || description.kind !== "simple") return description;
  // Loaded only by a remote environment that has MCP servers, as perform.ts does for native ones.
  const { mcpFunctionTools } = await import("../mcp/sources.js");
  const ctx = { sessionId: "", signal: AbortSignal.timeout(OPERATION_TIMEOUT_MS), secret: secretReader(bindings) };
  return { ...description, tools: [...description.tools, ...(await mcpFunctionTools(hostOf(config), ctx))] };
}

/**
 * A tool call one of the MCP servers lists, answered by it; undefined for any other name (the NeMo Gym server's tool). A
 * failure (the server down, a timeout) is the tool's error naming the MCP server, as a native environment's is.
 */
export async function remoteMcpCall(
  config: RemoteEnvironmentConfig,
  call: { name: string; args: unknown; sessionId: string },
  bindings: object,
  records: McpSessionRecords,
): Promise<Outcome | undefined> {
  if (!config.mcpServers?.length) return undefined;
  const { callMcpTool } = await import("../mcp/sources.js");
  const ctx = { sessionId: call.sessionId, signal: AbortSignal.timeout(config.timeouts.callMs), secret: secretReader(bindings), mcpSessions: records };
  try {
    return await callMcpTool(hostOf(config), call.name, call.args, ctx);
  } catch (error) {
    return caught(error, config.name, "tool", "tool_error");
  }
}

/** The session's end: its per_session MCP sessions ended (best effort, as a native session's are). */
export async function endRemoteMcpSessions(config: RemoteEnvironmentConfig, records: McpSessionRecords, bindings: object): Promise<void> {
  if (!config.mcpServers?.length) return;
  const { endMcpSessions } = await import("../mcp/sources.js");
  await endMcpSessions(hostOf(config), records, secretReader(bindings));
}

// The MCP servers an environment takes tools from (defineEnvironment's `mcpServers`, or a remote environment's
// configuration) beside its own tools: their listings, their calls, and the end of their per-session MCP sessions.
import type { McpSessionRecords, McpToolSourceConfig } from "../../../contracts/mcp.js";
import type { ToolCallContext, ToolListing } from "../../../contracts/tools.js";
import type { FunctionTool } from "../../../protocol/index.js";
import type { Outcome } from "../outcome.js";
import { OPERATION_TIMEOUT_MS } from "../refusals.js";
import type { ToolContext } from "../types.js";
import { endMcpSession, mcpToolSource } from "./source.js";

/** Whoever offers MCP servers' tools: its name, the names of its own tools (listed first) and its servers. */
export interface McpHost {
  name: string;
  tools: ReadonlyMap<string, unknown>;
  mcpServers?: readonly McpToolSourceConfig[];
}

/** What a listing or a call needs of the operation: its session, deadline, secrets and where MCP session ids live. */
export type McpCallContext = Pick<ToolContext<unknown>, "sessionId" | "signal" | "secret" | "mcpSessions">;

function callContext(ctx: Pick<ToolContext<unknown>, "sessionId" | "signal">): ToolCallContext {
  return { sessionId: ctx.sessionId, signal: ctx.signal, deadlineAt: Date.now() + OPERATION_TIMEOUT_MS };
}

const noSecret = () => undefined;

function sources(host: McpHost, ctx: Pick<McpCallContext, "secret" | "mcpSessions">) {
  return (host.mcpServers ?? []).map((config) => mcpToolSource(config, ctx.secret ?? noSecret, ctx.mcpSessions));
}

/** Every MCP server's tools, in the order of `mcpServers`; a name the host's own tools (or an earlier server) has is an error. */
export async function mcpListings(host: McpHost, ctx: McpCallContext): Promise<ToolListing[]> {
  const seen = new Map<string, string>([...host.tools.keys()].map((name) => [name, host.name]));
  const all: ToolListing[] = [];
  for (const source of sources(host, ctx)) {
    for (const listing of await source.list(callContext(ctx))) {
      const other = seen.get(listing.tool.name);
      if (other) throw new Error(`${host.name}: tool "${listing.tool.name}" is offered by both ${other} and MCP server ${source.name}`);
      seen.set(listing.tool.name, source.name);
      all.push(listing);
    }
  }
  return all;
}

/** The function tools the model sees from the MCP servers. */
export async function mcpFunctionTools(host: McpHost, ctx: McpCallContext): Promise<FunctionTool[]> {
  return (await mcpListings(host, ctx)).map((listing) => listing.tool);
}

/** Runs `name` on the MCP server that lists it, or answers undefined when none does (the caller says unknown_tool). */
export async function callMcpTool(host: McpHost, name: string, args: unknown, ctx: McpCallContext): Promise<Outcome | undefined> {
  const listings = await mcpListings(host, ctx);
  const listing = listings.find((candidate) => candidate.tool.name === name);
  if (!listing) return undefined;
  const source = sources(host, ctx).find((candidate) => candidate.name === listing.source);
  return source?.call({ name, arguments: args }, callContext(ctx));
}

/** The session's end: every `per_session` server's MCP session it opened is ended, and forgotten. */
export async function endMcpSessions(host: McpHost, records: McpSessionRecords, secret: (name: string) => string | undefined): Promise<void> {
  const recorded = await records.all();
  for (const config of host.mcpServers ?? []) {
    const id = recorded[config.name];
    if (id === undefined) continue;
    await endMcpSession(config, id, secret);
    await records.delete(config.name);
  }
}

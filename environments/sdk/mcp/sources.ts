// An environment's MCP servers (defineEnvironment's `mcpServers`) beside its native tools: their listings and calls.
import type { McpSessionRecords } from "../../../contracts/mcp.js";
import type { ToolCallContext, ToolListing } from "../../../contracts/tools.js";
import type { FunctionTool } from "../../../protocol/index.js";
import type { Outcome } from "../outcome.js";
import { OPERATION_TIMEOUT_MS } from "../refusals.js";
import type { SimpleEnvironment, ToolContext } from "../types.js";
import { endMcpSession, mcpToolSource } from "./source.js";

function callContext(ctx: Pick<ToolContext<unknown>, "sessionId" | "signal">): ToolCallContext {
  return { sessionId: ctx.sessionId, signal: ctx.signal, deadlineAt: Date.now() + OPERATION_TIMEOUT_MS };
}

const noSecret = () => undefined;

function sources(environment: SimpleEnvironment, ctx: Pick<ToolContext<unknown>, "secret" | "mcpSessions">) {
  return (environment.mcpServers ?? []).map((config) => mcpToolSource(config, ctx.secret ?? noSecret, ctx.mcpSessions));
}

/** Every MCP server's tools, in the order of `mcpServers`; a name a native tool (or an earlier server) has is an error. */
export async function mcpListings(environment: SimpleEnvironment, ctx: Pick<ToolContext<unknown>, "sessionId" | "signal" | "secret">): Promise<ToolListing[]> {
  const seen = new Map<string, string>([...environment.tools.keys()].map((name) => [name, environment.name]));
  const all: ToolListing[] = [];
  for (const source of sources(environment, ctx)) {
    for (const listing of await source.list(callContext(ctx))) {
      const other = seen.get(listing.tool.name);
      if (other) throw new Error(`${environment.name}: tool "${listing.tool.name}" is offered by both ${other} and MCP server ${source.name}`);
      seen.set(listing.tool.name, source.name);
      all.push(listing);
    }
  }
  return all;
}

/** The function tools the model sees from the MCP servers. */
export async function mcpFunctionTools(
  environment: SimpleEnvironment,
  ctx: Pick<ToolContext<unknown>, "sessionId" | "signal" | "secret">,
): Promise<FunctionTool[]> {
  return (await mcpListings(environment, ctx)).map((listing) => listing.tool);
}

/** Runs `name` on the MCP server that lists it, or answers undefined when none does (the caller says unknown_tool). */
export async function callMcpTool(environment: SimpleEnvironment, name: string, args: unknown, ctx: ToolContext<unknown>): Promise<Outcome | undefined> {
  const listings = await mcpListings(environment, ctx);
  const listing = listings.find((candidate) => candidate.tool.name === name);
  if (!listing) return undefined;
  const source = sources(environment, ctx).find((candidate) => candidate.name === listing.source);
  return source?.call({ name, arguments: args }, callContext(ctx));
}

/** The session's end: every `per_session` server's MCP session it opened is ended, and forgotten. */
export async function endMcpSessions(environment: SimpleEnvironment, records: McpSessionRecords, secret: (name: string) => string | undefined): Promise<void> {
  const recorded = await records.all();
  for (const config of environment.mcpServers ?? []) {
    const id = recorded[config.name];
    if (id === undefined) continue;
    await endMcpSession(config, id, secret);
    await records.delete(config.name);
  }
}

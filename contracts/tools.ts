// Where a tool call goes: one ToolSource contract that native tools, a remote NeMo Gym server and an MCP server all
// implement (issues 24, 25, 28 build on it; see contracts/README.md). Types only: nothing here runs.
import type { FunctionTool } from "../protocol/index.js";
import type { Outcome } from "./rpc.js";

/**
 * One tool call as a source receives it: the bare tool name (never `mcp__<server>__<tool>`: names are normalized before a
 * source sees them, contracts/mcp.ts) and the model's arguments, JSON-decoded by the agent (functions/agent/rollout.ts).
 */
export interface ToolCall {
  name: string;
  arguments: unknown;
  /** The model's call_id, when the call came from a model turn (for logs and the dashboard, never for dispatch). */
  callId?: string;
}

/** What every source is handed with a call: whose session it is, and when to give up. */
export interface ToolCallContext {
  /** edgegym's session id (signed, contracts/rpc.ts SessionOwner): the source's own session handle is looked up by it. */
  sessionId: string;
  /** Aborts at the operation's deadline (OPERATION_TIMEOUT_MS, cut by the rollout's): a source stops its I/O then. */
  signal: AbortSignal;
  /** The same deadline as epoch ms, for sources that pass a timeout on (an HTTP call's own timeout, an MCP request's). */
  deadlineAt: number;
}

/** A listed tool: what the model sees (the OpenAI function tool) and which source answers it. */
export interface ToolListing {
  tool: FunctionTool;
  /** The source's name: the environment's own name for native tools, the MCP server's name for an MCP source. */
  source: string;
}

/**
 * A tool call's answer is the environment operation's answer, as today (contracts/rpc.ts Outcome): status 200 and the
 * body the model sees, or an error envelope the model sees too (404 unknown_tool, 422 invalid_tool_arguments, 500
 * tool_error). A source *throws* only when it could not answer at all (transport down, deadline passed): the agent turns
 * that into `tool_error` / `tool_timeout` for the whole rollout (functions/agent/calls.ts environmentCall).
 */
export type ToolOutcome = Outcome;

/**
 * Anything that can list tools and run one within a deadline. Implemented by:
 * - native tools (defineEnvironment's `tools`: zod parameters + execute) — environments/sdk/sources/native.ts (#25 moves
 *   perform.ts callTool behind it; behaviour unchanged);
 * - a remote NeMo Gym resources server's `POST /<tool>` (contracts/remote.ts) — environments/sdk/remote/ (#24);
 * - an MCP server's `tools/list` + `tools/call` (contracts/mcp.ts McpToolSourceConfig) — environments/sdk/mcp/ (#25).
 * A sandbox is NOT a source: it is a capability a native tool uses through `ctx.sandbox` (contracts/sandbox.ts).
 */
export interface ToolSource {
  /** Names the source in listings, logs and MCP namespacing (`mcp__<name>__<tool>`): lower_snake_case. */
  readonly name: string;
  /**
   * The tools this source offers. Static sources (native) answer without I/O; MCP and remote sources list once per
   * session at most (a session may be narrowed to a subset, contracts/mcp.ts McpTokenClaims.tools).
   */
  list(ctx: ToolCallContext): Promise<ToolListing[]>;
  /**
   * Runs one call. At most once: a source never retries a call that may have run (a remote POST that timed out after
   * sending, an MCP call whose answer was lost); it may retry only what provably did not reach the other side.
   */
  call(call: ToolCall, ctx: ToolCallContext): Promise<ToolOutcome>;
}

/**
 * An environment's tools as one set: its sources in order, the first that lists a name answers it. A name listed by two
 * sources is a definition error found when the set is built (the environment's describe() would be ambiguous).
 */
export interface ToolSet {
  sources: readonly ToolSource[];
}

// defineEnvironment: an environment's tools, verifier and optional session state, declared once with zod.
import { z } from "zod";
import { RESERVED_ROUTES } from "../../contracts/names.js";
import type { McpToolSourceConfig } from "../../contracts/mcp.js";
import type { SandboxSpec } from "../../contracts/sandbox.js";
import { VerifyRequest, type VerifyResult } from "../../protocol/index.js";
import { functionTool } from "./tools.js";
import { checkName, type CompiledTool, type SimpleEnvironment, type TaskSchema, type ToolContext, type ToolDefinition, type VerifyOutcome } from "./types.js";

export type { Environment, SessionState, ToolContext, ToolDefinition, VerifyOutcome } from "./types.js";
export { functionTool, toolJsonSchema } from "./tools.js";
/** Routes every resources server has; a tool may not take these names. */
export { RESERVED_ROUTES };

export interface EnvironmentOptions<S, T extends TaskSchema, P extends Record<string, z.ZodType>> {
  name: string;
  description?: string;
  /** Task fields the verifier reads from the row (e.g. `expected_answer`); checked on /seed_session and /verify. */
  task?: T;
  /** Declaring state makes the environment stateful: one Durable Object per session holds it. */
  state?: z.ZodType<S>;
  /** Declaring a sandbox gives tools and verify `ctx.sandbox` (one per session) and makes the environment stateful. */
  sandbox?: SandboxSpec;
  tools: { [K in keyof P]: ToolDefinition<P[K], S> };
  seedSession?(row: z.output<T> & Record<string, unknown>, ctx: ToolContext<S>): unknown;
  verify(request: VerifyRequest & z.output<T>, ctx: ToolContext<S>): VerifyOutcome | Promise<VerifyOutcome>;
  /** NeMo Gym's compute_metrics hook: extra aggregate metrics over the verify responses grouped by task. */
  computeMetrics?(tasks: VerifyResult[][]): Record<string, unknown>;
  /** NeMo Gym's get_key_metrics hook: the headline metrics picked from agent_metrics. */
  keyMetrics?(agentMetrics: Record<string, unknown>): Record<string, unknown>;
  /** NeMo Gym's mcp_allowed_tools_for_session: narrows a session's MCP token to these tools (from the seed's row). */
  mcpAllowedTools?(row: z.output<T> & Record<string, unknown>): readonly string[] | undefined;
  /** MCP servers whose tools join `tools` (listed in describe and /tools, called like native ones; a native name wins). */
  mcpServers?: readonly McpToolSourceConfig[];
  /** A cap on model turns for rollouts of this environment (the agent's default applies otherwise). */
  maxSteps?: number;
}

/** Whether a server keeps an MCP session per edgegym session (only over HTTP: a stdio server is a process per connection). */
function perSession(environment: string, servers: readonly McpToolSourceConfig[] = []): boolean {
  for (const server of servers) {
    if (server.sessions === "per_session" && server.transport.kind !== "http") {
      throw new Error(`${environment}: MCP server ${server.name} is per_session, which needs transport kind "http" (a stdio server lives one connection)`);
    }
  }
  return servers.some((server) => server.sessions === "per_session");
}

export function defineEnvironment<S = never, T extends TaskSchema = z.ZodObject<{}>, P extends Record<string, z.ZodType> = Record<string, z.ZodType>>(
  options: EnvironmentOptions<S, T, P>,
): SimpleEnvironment {
  checkName(options.name);
  const tools = new Map<string, CompiledTool>();
  for (const [name, definition] of Object.entries(options.tools) as [string, ToolDefinition<z.ZodType, S>][]) {
    if (RESERVED_ROUTES.has(name) || name === "mcp") throw new Error(`tool name "${name}" is reserved in ${options.name}`);
    tools.set(name, {
      name,
      definition: definition as ToolDefinition<z.ZodType, unknown>,
      openai: functionTool(name, definition.description, definition.parameters),
    });
  }
  const task = options.task ?? z.object({});
  return {
    kind: "simple",
    name: options.name,
    description: options.description ?? "",
    // A per_session MCP server's session id is kept in the session's Durable Object, as state is.
    stateful: options.state !== undefined || options.sandbox !== undefined || perSession(options.name, options.mcpServers),
    ...(options.sandbox ? { sandbox: options.sandbox } : {}),
    maxSteps: options.maxSteps,
    tools,
    task: task.loose(),
    taskKeys: Object.keys(task.shape),
    verifyRequest: VerifyRequest.extend(task.shape),
    seedSession: options.seedSession as SimpleEnvironment["seedSession"],
    mcpAllowedTools: options.mcpAllowedTools as SimpleEnvironment["mcpAllowedTools"],
    ...(options.mcpServers?.length ? { mcpServers: options.mcpServers } : {}),
    verify: options.verify as SimpleEnvironment["verify"],
    computeMetrics: options.computeMetrics,
    keyMetrics: options.keyMetrics,
  };
}

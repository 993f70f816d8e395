// The shapes of a compiled environment, both kinds: what defineEnvironment and defineGymnasiumEnvironment produce.
import type { z } from "zod";
import type { DatasetRow, FunctionTool, Response, VerifyRequest, VerifyResult } from "../../protocol/index.js";
import type { ContextPorts } from "../../contracts/context.js";
import type { McpSessionRecords, McpToolSourceConfig } from "../../contracts/mcp.js";
import type { SandboxSpec } from "../../contracts/sandbox.js";
import type { Judge } from "./judge.js";

/** A session's state, kept in the session's Durable Object when the environment declares `state`. */
export interface SessionState<S> {
  get(): Promise<S | undefined>;
  set(value: S): Promise<void>;
  /** Forget the state (a gymnasium episode's end); absent where there is nothing to forget. */
  clear?(): Promise<void>;
}

export interface ToolContext<S> extends ContextPorts {
  sessionId: string;
  state: SessionState<S>;
  signal: AbortSignal;
  /** Ask the judge model (its own model configuration); a failed call makes the rollout `judge_failed`, reward 0. */
  judge: Judge;
  /** The session's SQLite database, for stateful environments (inside the session's Durable Object). */
  sql?: SqlStorage;
  /** Reads a secret by name (the Worker's env binding): an MCP server's credentials (`mcpServers`' headerSecrets). */
  secret?(name: string): string | undefined;
  /** Where the session keeps its `per_session` MCP servers' session ids: the SDK's own, an environment has no use for it. */
  mcpSessions?: McpSessionRecords;
}

/** A tool as OpenAI's Agents SDK models it: name (its key), description, zod parameters, execute. */
export interface ToolDefinition<P extends z.ZodType, S> {
  description: string;
  parameters: P;
  execute(args: z.output<P>, ctx: ToolContext<S>): unknown;
}

/** What a verifier returns: the reward, optional components, and any extra fields for the record. */
export type VerifyOutcome = { reward: number; reward_components?: Record<string, number> } & Record<string, unknown>;

export type TaskSchema = z.ZodObject<z.ZodRawShape>;

export interface CompiledTool {
  name: string;
  definition: ToolDefinition<z.ZodType, unknown>;
  /** The OpenAI function tool the model sees, its JSON schema derived from the zod parameters once. */
  openai: FunctionTool;
}

/** What `reset` returns: the first observation (appended to the input as a user message) and info. */
export interface GymnasiumReset {
  observation?: string | null;
  info?: Record<string, unknown>;
}

/** What `step` returns: Gymnasium's (observation, reward, terminated, truncated, info). */
export interface GymnasiumStep {
  /** The next user message, or null/undefined for none. */
  observation?: string | null;
  /** This step's reward; the agent sums them. */
  reward: number;
  /** The episode ended on its own (solved, game over). */
  terminated: boolean;
  /** The episode was cut short. */
  truncated: boolean;
  /** Extra fields; `tool_outputs: [{ call_id, output }]` answers the model's function calls (see toolOutput). */
  info?: Record<string, unknown>;
}

/** What both kinds share. */
interface EnvironmentBase {
  name: string;
  description: string;
  stateful: boolean;
  /** The session's sandbox, when the environment declares one (contracts/sandbox.ts); it makes the environment stateful. */
  sandbox?: SandboxSpec;
  maxSteps?: number;
  /** The task fields of a row, parsed alone (the rest of the row passes through): built once, so no request compiles one. */
  task: z.ZodType<Record<string, unknown>>;
  /** The names of the task fields, to pick them out of a parsed row. */
  taskKeys: string[];
  computeMetrics?(tasks: VerifyResult[][]): Record<string, unknown>;
  keyMetrics?(agentMetrics: Record<string, unknown>): Record<string, unknown>;
  /** Example rows (the first of its data/example.jsonl), bundled by the build for the dashboard's "run one row". */
  examples?: DatasetRow[];
}

/** NeMo Gym's simple resources server: seed, tools, verify. */
export interface SimpleEnvironment extends EnvironmentBase {
  kind: "simple";
  tools: Map<string, CompiledTool>;
  /** The whole verify request, task fields included: what an outside caller's body is checked against. */
  verifyRequest: z.ZodType<VerifyRequest>;
  seedSession?(row: Record<string, unknown>, ctx: ToolContext<unknown>): unknown;
  /** NeMo Gym's mcp_allowed_tools_for_session: the tools a session's MCP token may list and call (undefined = all). */
  mcpAllowedTools?(row: Record<string, unknown>): readonly string[] | undefined;
  /** MCP servers whose tools join the native ones (environments/sdk/mcp/sources.ts); a name is looked up natively first. */
  mcpServers?: readonly McpToolSourceConfig[];
  verify(request: VerifyRequest, ctx: ToolContext<unknown>): VerifyOutcome | Promise<VerifyOutcome>;
}

/** NeMo Gym's GymnasiumServer: reset and step, a reward per step. */
export interface GymnasiumEnvironment extends EnvironmentBase {
  kind: "gymnasium";
  tools: FunctionTool[];
  /** The whole reset / step request, for outside callers. */
  resetRequest: z.ZodType<Record<string, unknown>>;
  stepRequest: z.ZodType<Record<string, unknown> & { response: Response }>;
  reset?(row: Record<string, unknown>, ctx: ToolContext<unknown>): GymnasiumReset | void | Promise<GymnasiumReset | void>;
  step(action: Response, row: Record<string, unknown>, ctx: ToolContext<unknown>): GymnasiumStep | Promise<GymnasiumStep>;
  close?(ctx: ToolContext<unknown>): unknown;
}

export type Environment = SimpleEnvironment | GymnasiumEnvironment;

/** An environment name is lower_snake_case: it names a folder, a Worker and a binding. */
export function checkName(name: string): void {
  if (!/^[a-z][a-z0-9_]*$/.test(name)) throw new Error(`environment name "${name}" must be lower_snake_case`);
}

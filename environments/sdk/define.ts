// defineEnvironment: an environment's tools, verifier and optional session state, declared once with zod.
import { z } from "zod";
import { VerifyRequest, type FunctionTool } from "../../protocol/index.js";
import type { GymnasiumSpec } from "./gymnasium.js";
import type { Judge } from "./judge.js";
import type { AggregateMetrics, VerifyResult } from "./metrics.js";

/** A session's state, kept in the session's Durable Object when the environment declares `state`. */
export interface SessionState<S> {
  get(): Promise<S | undefined>;
  set(value: S): Promise<void>;
  /** Forget the state (a gymnasium episode's end); absent where there is nothing to forget. */
  clear?(): Promise<void>;
}

export interface ToolContext<S> {
  sessionId: string;
  state: SessionState<S>;
  signal: AbortSignal;
  /** Ask the judge model (its own model configuration); a failed call makes the rollout `judge_failed`, reward 0. */
  judge: Judge;
  /** The session's SQLite database, for stateful environments (inside the session's Durable Object). */
  sql?: SqlStorage;
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

export interface EnvironmentOptions<S, T extends TaskSchema, P extends Record<string, z.ZodType>> {
  name: string;
  description?: string;
  /** Task fields the verifier reads from the row (e.g. `expected_answer`); checked on /seed_session and /verify. */
  task?: T;
  /** Declaring state makes the environment stateful: one Durable Object per session holds it. */
  state?: z.ZodType<S>;
  tools: { [K in keyof P]: ToolDefinition<P[K], S> };
  seedSession?(row: z.output<T> & Record<string, unknown>, ctx: ToolContext<S>): unknown;
  verify(request: VerifyRequest & z.output<T>, ctx: ToolContext<S>): VerifyOutcome | Promise<VerifyOutcome>;
  /** NeMo Gym's compute_metrics hook: extra aggregate metrics over the verify responses grouped by task. */
  computeMetrics?(tasks: VerifyResult[][]): Record<string, unknown>;
  /** NeMo Gym's get_key_metrics hook: the headline metrics picked from agent_metrics. */
  keyMetrics?(agentMetrics: Record<string, unknown>): Record<string, unknown>;
  /** A cap on model turns for rollouts of this environment (the agent's default applies otherwise). */
  maxSteps?: number;
}

export interface CompiledTool {
  name: string;
  definition: ToolDefinition<z.ZodType, unknown>;
  /** The OpenAI function tool the model sees, its JSON schema derived from the zod parameters once. */
  openai: FunctionTool;
}

export interface Environment {
  name: string;
  description: string;
  stateful: boolean;
  maxSteps?: number;
  tools: Map<string, CompiledTool>;
  /** Schemas built once at definition time, so no request compiles one. */
  seedRequest: z.ZodType<Record<string, unknown>>;
  verifyRequest: z.ZodType<VerifyRequest>;
  seedSession?(row: Record<string, unknown>, ctx: ToolContext<unknown>): unknown;
  verify(request: VerifyRequest, ctx: ToolContext<unknown>): VerifyOutcome | Promise<VerifyOutcome>;
  computeMetrics?(tasks: VerifyResult[][]): Record<string, unknown>;
  keyMetrics?(agentMetrics: Record<string, unknown>): Record<string, unknown>;
  /** Set for a gymnasium (reset/step) environment, made by defineGymnasiumEnvironment. */
  gymnasium?: GymnasiumSpec;
}

export type { AggregateMetrics };

/** Routes every resources server has; a tool may not take these names. */
export const RESERVED_ROUTES = new Set(["seed_session", "verify", "aggregate_metrics", "tools", "health"]);

/** The OpenAI function tool the model sees for a tool, its parameters' JSON schema derived from zod. */
export function functionTool(name: string, description: string, parameters: z.ZodType): FunctionTool {
  return { type: "function", name, description, parameters: toolJsonSchema(parameters), strict: true };
}

/** The JSON schema the model sees, in the form NeMo Gym's datasets carry (strict: closed objects, `required` always present). */
export function toolJsonSchema(parameters: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(parameters) as Record<string, unknown>;
  if (schema.type === "object" && !("required" in schema)) schema.required = [];
  return schema;
}

export function defineEnvironment<S = never, T extends TaskSchema = z.ZodObject<{}>, P extends Record<string, z.ZodType> = Record<string, z.ZodType>>(
  options: EnvironmentOptions<S, T, P>,
): Environment {
  if (!/^[a-z][a-z0-9_]*$/.test(options.name)) {
    throw new Error(`environment name "${options.name}" must be lower_snake_case`);
  }
  const tools = new Map<string, CompiledTool>();
  for (const [name, definition] of Object.entries(options.tools) as [string, ToolDefinition<z.ZodType, S>][]) {
    if (RESERVED_ROUTES.has(name)) throw new Error(`tool name "${name}" is reserved in ${options.name}`);
    tools.set(name, {
      name,
      definition: definition as ToolDefinition<z.ZodType, unknown>,
      openai: functionTool(name, definition.description, definition.parameters),
    });
  }
  return {
    name: options.name,
    description: options.description ?? "",
    stateful: options.state !== undefined,
    maxSteps: options.maxSteps,
    tools,
    seedRequest: (options.task ?? z.object({})).loose(),
    verifyRequest: VerifyRequest.extend((options.task ?? z.object({})).shape),
    seedSession: options.seedSession as Environment["seedSession"],
    verify: options.verify as Environment["verify"],
    computeMetrics: options.computeMetrics,
    keyMetrics: options.keyMetrics,
  };
}

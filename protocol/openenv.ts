// OpenEnv's environment protocol (github meta-pytorch/OpenEnv, src/openenv/core/env_server/types.py and mcp_types.py):
// the reset/step bodies, the tool-calling actions and the WebSocket messages, as edgegym serves them.
import { z } from "zod";
import { DatasetRow } from "./rows.js";

/**
 * types.py ResetRequest (extra fields allowed): `seed` and `episode_id` as OpenEnv has them; `row` is edgegym's, the task
 * (a NeMo Gym dataset row) to open the episode on. Without it the environment's bundled example row is the task.
 */
export const OpenEnvReset = z.looseObject({
  seed: z.number().int().min(0).nullish(),
  episode_id: z.string().max(255).nullish(),
  row: DatasetRow.optional(),
});
export type OpenEnvReset = z.infer<typeof OpenEnvReset>;

/** mcp_types.py ListToolsAction. */
export const ListToolsAction = z.object({
  type: z.literal("list_tools"),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

/** mcp_types.py CallToolAction: a tool call, run in the episode's session. */
export const CallToolAction = z.object({
  type: z.literal("call_tool"),
  tool_name: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()).default({}),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

/** edgegym's: the model's final answer (its last assistant message); verify scores the episode and it is done. */
export const MessageAction = z.object({
  type: z.literal("message"),
  content: z.string(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

export const OpenEnvAction = z.discriminatedUnion("type", [ListToolsAction, CallToolAction, MessageAction]);
export type OpenEnvAction = z.infer<typeof OpenEnvAction>;

/**
 * types.py StepRequest (extra fields allowed): over stateless HTTP, `episode` carries the episode from the answer before
 * (observation.metadata.episode); a WebSocket keeps it on the connection instead.
 */
export const OpenEnvStep = z.looseObject({
  action: OpenEnvAction,
  timeout_s: z.number().positive().nullish(),
  request_id: z.string().max(255).nullish(),
  episode: z.string().optional(),
});
export type OpenEnvStep = z.infer<typeof OpenEnvStep>;

/** types.py WSIncomingMessage: what a WebSocket client (env_client.py EnvClient) sends. */
export const OpenEnvMessage = z.discriminatedUnion("type", [
  z.object({ type: z.literal("reset"), data: z.record(z.string(), z.unknown()).default({}) }),
  z.object({ type: z.literal("step"), data: z.record(z.string(), z.unknown()) }),
  z.object({ type: z.literal("state") }),
  z.object({ type: z.literal("close") }),
]);
export type OpenEnvMessage = z.infer<typeof OpenEnvMessage>;

/** mcp_types.py Tool: a tool as OpenEnv lists it. */
export const OpenEnvTool = z.object({ name: z.string(), description: z.string(), input_schema: z.record(z.string(), z.unknown()) });
export type OpenEnvTool = z.infer<typeof OpenEnvTool>;

/**
 * The observation edgegym answers (for /schema): after reset the prompt and the tools (ListToolsObservation's `tools`),
 * after a tool call CallToolObservation's fields, after the final answer the answer; `metadata` always names the episode.
 */
export const OpenEnvObservation = z.object({
  prompt: z.array(z.record(z.string(), z.unknown())).optional(),
  tools: z.array(OpenEnvTool).optional(),
  tool_name: z.string().optional(),
  result: z.unknown().optional(),
  error: z.object({ error_type: z.string(), message: z.string() }).nullable().optional(),
  content: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()),
});

/** types.py State, with edgegym's extras. */
export const OpenEnvStateSchema = z.looseObject({ episode_id: z.string().nullable(), step_count: z.number().int().min(0), done: z.boolean().optional() });

/** serialization.py serialize_observation's shape: what /reset and /step answer and a WebSocket `observation` carries. */
export interface OpenEnvResult {
  observation: Record<string, unknown>;
  reward: number | null;
  done: boolean;
}

/** types.py State. */
export interface OpenEnvState {
  episode_id: string | null;
  step_count: number;
  [extra: string]: unknown;
}

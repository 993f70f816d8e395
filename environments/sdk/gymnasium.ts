// defineGymnasiumEnvironment: a reset/step environment (NeMo Gym's GymnasiumServer), declared once with zod.
import { z } from "zod";
import { DatasetRow, EdgegymError, type FunctionCallItem, Response, type VerifyResult } from "../../protocol/index.js";
import { pythonJsonDumps } from "./python/json-dumps.js";
import { allOutputText } from "./response-helpers.js";
import { functionTool } from "./tools.js";
import { checkName, type GymnasiumEnvironment, type GymnasiumReset, type GymnasiumStep, type TaskSchema, type ToolContext } from "./types.js";

export type { GymnasiumEnvironment, GymnasiumReset, GymnasiumStep } from "./types.js";

/** A row as reset and step see it: the dataset row with its task fields parsed by `task`. */
export type GymnasiumRow<T extends TaskSchema> = DatasetRow & z.output<T> & Record<string, unknown>;

/** A tool the model may call: shown in GET /tools; the environment's `step` runs it and answers in `info.tool_outputs`. */
export interface GymnasiumToolDefinition {
  description: string;
  parameters: z.ZodType;
}

export interface GymnasiumOptions<S, T extends TaskSchema> {
  name: string;
  description?: string;
  /** Task fields reset and step read from the row; checked on every /reset and /step. */
  task?: T;
  /** Declaring state makes the environment stateful: one Durable Object per session holds it. */
  state?: z.ZodType<S>;
  tools?: Record<string, GymnasiumToolDefinition>;
  /** Runs once per episode; the default is NeMo Gym's: no observation, no info. */
  reset?(row: GymnasiumRow<T>, ctx: ToolContext<S>): GymnasiumReset | void | Promise<GymnasiumReset | void>;
  /** Runs after each model response (`action`, that turn's Response). */
  step(action: Response, row: GymnasiumRow<T>, ctx: ToolContext<S>): GymnasiumStep | Promise<GymnasiumStep>;
  /** NeMo Gym's close_session: runs after a terminated or truncated step, and on POST /close; the state is cleared after it. */
  close?(ctx: ToolContext<S>): unknown;
  /** The agent's max_steps for this environment (NeMo Gym's gymnasium_agent default, 10, applies otherwise). */
  maxSteps?: number;
  computeMetrics?(tasks: VerifyResult[][]): Record<string, unknown>;
}

/** The answer to /seed_session and /verify on a gymnasium environment: the protocol is reset/step. */
export function useResetStep(name: string, route: string): EdgegymError {
  return new EdgegymError(
    404,
    "use_reset_step",
    `${name} is a gymnasium environment: it serves POST /reset and POST /step (driven by the gymnasium agent), not /${route}`,
  );
}

export function defineGymnasiumEnvironment<S = never, T extends TaskSchema = z.ZodObject<{}>>(options: GymnasiumOptions<S, T>): GymnasiumEnvironment {
  checkName(options.name);
  if (options.maxSteps !== undefined && (!Number.isInteger(options.maxSteps) || options.maxSteps < 1)) {
    throw new Error(`${options.name}: maxSteps must be a positive integer`);
  }
  const task = options.task ?? z.object({});
  const resetRequest = DatasetRow.extend(task.shape);
  return {
    kind: "gymnasium",
    name: options.name,
    description: options.description ?? "",
    stateful: options.state !== undefined,
    maxSteps: options.maxSteps,
    tools: Object.entries(options.tools ?? {}).map(([name, tool]) => functionTool(name, tool.description, tool.parameters)),
    task: task.loose(),
    taskKeys: Object.keys(task.shape),
    resetRequest,
    stepRequest: resetRequest.extend({ response: Response }),
    reset: options.reset as GymnasiumEnvironment["reset"],
    step: options.step as GymnasiumEnvironment["step"],
    close: options.close as GymnasiumEnvironment["close"],
    computeMetrics: options.computeMetrics,
  };
}

/** NeMo Gym's extract_text: all the text of a response's messages (see allOutputText). */
export const extractText = allOutputText;

/** The model's function calls in a step's action. */
export function actionCalls(action: Response): FunctionCallItem[] {
  return action.output.filter((item): item is FunctionCallItem => item.type === "function_call");
}

/** One entry of `info.tool_outputs`, as NeMo Gym's GymnasiumServer.tool_output builds it (the result as Python's json.dumps writes it). */
export function toolOutput(call: Pick<FunctionCallItem, "call_id">, result: unknown): { call_id: string; output: string } {
  return { call_id: call.call_id, output: pythonJsonDumps(result) };
}

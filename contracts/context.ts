// What a tool or verifier will get beyond today's ToolContext (environments/sdk/types.ts): the ports issues 26 and 28
// add, declared once here so the one edit to ToolContext is made once. Types only.
import type { Response as ModelResponse, ResponsesCreateParams } from "../protocol/index.js";
import type { Sandbox } from "./sandbox.js";

/**
 * The models an environment may ask, by role. NeMo Gym's conversational_tool_use_simulation configures four model
 * servers (resources_servers/conversational_tool_use_simulation/app.py: simulator_model_server, user_model_server,
 * tool_simulator_model_server, judge_model_server); every LLM-as-judge server configures one (judge_model_server).
 */
export type ModelRole = "judge" | "user" | "tool_simulator" | "simulator";

/**
 * Asks the model serving `role`: the same shape as today's `Judge` (environments/sdk/judge.ts), bound per role. Each role
 * is a model-proxy binding of the environment's Worker: `JUDGE` today, `MODEL_<ROLE>` for the others, falling back to
 * `JUDGE` when absent (one proxy, another model named in params). A failed call throws the SDK's JudgeError for `judge`
 * (→ `judge_failed`, reward 0, as now) and a ModelPortError for the others: in a tool that is the tool's 500 envelope,
 * which the rollout turns into `tool_error`, retried whole (a user turn that never came is infrastructure, not the
 * policy's fault). Simulated turns are recorded in the record (the environment's verify fields), never trained on.
 */
export type Models = (role: ModelRole, params: ResponsesCreateParams) => Promise<ModelResponse>;

/**
 * The fields ToolContext gains (all optional, so nothing existing changes meaning): `ToolContext<S> extends ContextPorts`
 * is the single edit to environments/sdk/types.ts, made by whichever of #26 / #28 lands first.
 */
export interface ContextPorts {
  /** The session's sandbox, present when the environment declares `sandbox: SandboxSpec` (which makes it stateful). */
  sandbox?: Sandbox;
  /** Models by role; `ctx.judge` stays, as `(params) => models("judge", params)`. */
  models?: Models;
}

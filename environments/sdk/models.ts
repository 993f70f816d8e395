// Models by role for an environment (contracts/context.ts): the judge, a simulated user, a tool simulator, a simulator.
import type { ModelRole, Models } from "../../contracts/context.js";
import type { ModelRpc } from "../../contracts/rpc.js";
import { JudgeError, judgeThrough } from "./judge.js";

/** A call to a model other than the judge failed: in a tool that is the tool's 500 envelope (`tool_error`, retried whole). */
export class ModelPortError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ModelPortError";
  }
}

/** The model proxies an environment may reach, by role; a role without its own falls back to the judge's. */
export type ModelBindings = Partial<Record<ModelRole, ModelRpc>>;

/** One port over the bindings: the judge keeps JudgeError (→ `judge_failed`), the other roles throw ModelPortError. */
export function modelsThrough(bindings: ModelBindings, signal: AbortSignal | (() => AbortSignal)): Models {
  return async (role, params) => {
    const ask = judgeThrough(bindings[role] ?? bindings.judge, signal);
    if (role === "judge") return ask(params);
    try {
      return await ask(params);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new ModelPortError(`the ${role} model: ${error instanceof JudgeError ? message.replace(/^the judge /, "") : message}`);
    }
  };
}

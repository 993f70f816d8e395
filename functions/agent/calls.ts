// The agent's calls to the model and the environment: bounded by the rollout's deadline, failures classified.
import {
  DeadlineError,
  type EnvironmentRpc,
  type ModelChoice,
  type ModelRpc,
  type Outcome,
  type SessionOwner,
  within as bounded,
} from "../../contracts/rpc.js";
import type { ResponsesCreateParams, Response as ResponsesResponse } from "../../protocol/index.js";
import { type FailureClass, RolloutFailure } from "./failure.js";

export interface RolloutLimits {
  maxSteps: number;
  /** Whole-rollout deadline; every call below is cut off by it. */
  deadline: AbortSignal;
  modelTimeoutMs: number;
  toolTimeoutMs: number;
}

export interface RolloutParts {
  model: ModelRpc;
  resources: EnvironmentRpc;
  /** The caller's policy model and token choice, passed on with every model call of the rollout. */
  choice?: ModelChoice;
  /** The rollout and the caller's token name: the environment's sessions are bound to them. */
  owner: SessionOwner;
}

/** A call's own timeout, cut short by the rollout's deadline. */
export function within(limits: RolloutLimits, ms: number): AbortSignal {
  return AbortSignal.any([limits.deadline, AbortSignal.timeout(ms)]);
}

/** Waits for an environment call; a transport failure or a timeout becomes a classified RolloutFailure. */
export async function environmentCall<T>(call: () => Promise<T>, what: string, limits: RolloutLimits, failure: FailureClass): Promise<T> {
  try {
    return await bounded(call(), within(limits, limits.toolTimeoutMs), what);
  } catch (error) {
    if (error instanceof DeadlineError || limits.deadline.aborted) {
      const bound = limits.deadline.aborted ? "the rollout's deadline" : `its timeout (${limits.toolTimeoutMs} ms)`;
      throw new RolloutFailure("tool_timeout", `${what} did not answer within ${bound}`);
    }
    throw new RolloutFailure(failure, `${what} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** An operation's answer must be a 200; anything else fails the rollout with what the environment said. */
export function expectOk(outcome: Outcome, what: string, failure: FailureClass): unknown {
  if (outcome.status === 200) return outcome.body;
  throw new RolloutFailure(failure, `${what} answered ${outcome.status}: ${JSON.stringify(outcome.body).slice(0, 2000)}`, outcome.status);
}

/** One model turn through the proxy (RPC): the params as they are, the Response as the proxy built it. */
export async function modelTurn(parts: RolloutParts, params: ResponsesCreateParams, sessionId: string, limits: RolloutLimits): Promise<ResponsesResponse> {
  const signal = within(limits, limits.modelTimeoutMs);
  let result: Awaited<ReturnType<ModelRpc["respond"]>>;
  try {
    result = await bounded(parts.model.respond(params, { sessionId, timeoutMs: limits.modelTimeoutMs, ...parts.choice }), signal, "the model");
  } catch (error) {
    if (error instanceof DeadlineError || limits.deadline.aborted) {
      const bound = limits.deadline.aborted ? "the rollout's deadline" : `its timeout (${limits.modelTimeoutMs} ms)`;
      throw new RolloutFailure("model_timeout", `the model did not answer within ${bound}`);
    }
    throw new RolloutFailure("model_error", `the model call failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!result.ok) {
    // The proxy's own timeouts (per attempt, or the time the agent gave it) are timeouts, whoever noticed first.
    const timedOut = result.error.code === "upstream_timeout" || result.error.code === "upstream_aborted";
    throw new RolloutFailure(
      timedOut ? "model_timeout" : "model_error",
      `the model answered ${result.error.status}: ${result.error.message.slice(0, 2000)}`,
      result.error.status,
    );
  }
  return result.value;
}

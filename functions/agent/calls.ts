// The agent's calls to the model and the environment: bounded by the rollout's deadline, failures classified.
import { DeadlineError, type EnvironmentRpc, type ModelChoice, type ModelRpc, type Outcome, type SessionOwner, withinMs } from "../../contracts/rpc.js";
import { type DatasetRow, type ResponsesCreateParams, type Response as ResponsesResponse, rewardComponentsProblem } from "../../protocol/index.js";
import { type FailureClass, RolloutFailure } from "./failure.js";
import type { McpNaming } from "./tool-names.js";

export interface RolloutLimits {
  maxSteps: number;
  /** Whole-rollout deadline (epoch ms); every call below is cut off by it. */
  deadlineAt: number;
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
  /** Set under tool_names=mcp: the model sees the environment's tools by their MCP names (tool-names.ts). */
  mcp?: McpNaming;
}

/** Whether the rollout's deadline has passed. */
export function expired(limits: RolloutLimits): boolean {
  return Date.now() >= limits.deadlineAt;
}

/** A call's own time, cut short by the rollout's deadline, in ms. */
export function remaining(limits: RolloutLimits, ms: number): number {
  return Math.max(0, Math.min(ms, limits.deadlineAt - Date.now()));
}

/**
 * Waits for a call at most `ms` (never past the rollout's deadline). An RPC promise cannot be aborted, so the caller stops
 * waiting instead (the callee bounds its own work with the time it was given). One timer per call and no signal objects:
 * five calls or more per rollout make AbortSignal.any / AbortSignal.timeout a measurable share of the agent's CPU.
 */
export function bounded<T>(call: Promise<T>, limits: RolloutLimits, ms: number, what: string): Promise<T> {
  const wait = remaining(limits, ms);
  if (wait <= 0) return Promise.reject(new DeadlineError(what));
  return withinMs(call, wait, what);
}

/**
 * An error a callee raised on its own timeout: `<what>_timeout: …` (environments/sdk/remote/client.ts RemoteFaultError),
 * which workerd's RPC hands on as `RemoteFaultError: <what>_timeout: …`.
 */
const CALLEE_TIMEOUT = /^(?:[A-Za-z]+Error: )?[a-z]+(?:_[a-z]+)*_timeout: /;

/** Waits for an environment call; a transport failure or a timeout becomes a classified RolloutFailure. */
export async function environmentCall<T>(call: () => Promise<T>, what: string, limits: RolloutLimits, failure: FailureClass): Promise<T> {
  try {
    return await bounded(call(), limits, limits.toolTimeoutMs, what);
  } catch (error) {
    if (error instanceof DeadlineError || expired(limits)) {
      const bound = expired(limits) ? "the rollout's deadline" : `its timeout (${limits.toolTimeoutMs} ms)`;
      throw new RolloutFailure("tool_timeout", `${what} did not answer within ${bound}`);
    }
    // The callee's own bound ran out first (a remote server past its callMs: `remote_timeout: …`); the message says so
    // across RPC, where the error's class does not survive.
    if (error instanceof Error && CALLEE_TIMEOUT.test(error.message)) throw new RolloutFailure("tool_timeout", `${what}: ${error.message}`);
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
  // The proxy is told the time this call has left, so it stops retrying by then.
  const timeoutMs = remaining(limits, limits.modelTimeoutMs);
  let result: Awaited<ReturnType<ModelRpc["respond"]>>;
  try {
    result = await bounded(parts.model.respond(params, { sessionId, timeoutMs, ...parts.choice }), limits, timeoutMs, "the model");
  } catch (error) {
    if (error instanceof DeadlineError || expired(limits)) {
      const bound = expired(limits) ? "the rollout's deadline" : `its timeout (${limits.modelTimeoutMs} ms)`;
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

/** /seed_session for a rollout: its session id, or the rollout fails seed_failed. */
export async function seedSession(row: DatasetRow, parts: RolloutParts, limits: RolloutLimits): Promise<string> {
  const seeded = await environmentCall(() => parts.resources.seed(row, parts.owner), "/seed_session", limits, "seed_failed");
  expectOk(seeded, "/seed_session", "seed_failed");
  return seeded.sessionId;
}

/**
 * /verify for a rollout, and NeMo Gym's verify response: the request with the verifier's fields added (the environment
 * sends only those back). A reward that is not a number, or components that do not sum to it (NeMo RL refuses such a
 * batch), fails the rollout verify_failed.
 */
export async function verifyRollout(
  sessionId: string,
  request: Parameters<EnvironmentRpc["verify"]>[1],
  parts: RolloutParts,
  limits: RolloutLimits,
): Promise<Record<string, unknown>> {
  const verified = await environmentCall(() => parts.resources.verify(sessionId, request, parts.owner), "/verify", limits, "verify_failed");
  const fields = expectOk(verified, "/verify", "verify_failed");
  if (!fields || typeof fields !== "object" || typeof (fields as { reward?: unknown }).reward !== "number") {
    throw new RolloutFailure("verify_failed", "/verify answered without a numeric reward");
  }
  const mismatch = rewardComponentsProblem(fields as Record<string, unknown>);
  if (mismatch) throw new RolloutFailure("verify_failed", `/verify answered inconsistent rewards: ${mismatch}`);
  return { ...request, ...(fields as Record<string, unknown>) };
}

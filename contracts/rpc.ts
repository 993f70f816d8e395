// The typed calls between Workers: what each RPC entrypoint and Durable Object offers the others.
import type {
  AggregateMetrics,
  DatasetRow,
  ErrorIssue,
  FunctionTool,
  Response as ModelResponse,
  ResponsesCreateParams,
  VerifyRequest,
} from "../protocol/index.js";

/** An error as data, so it crosses an RPC boundary whole (a thrown error keeps only its message there). */
export interface RpcError {
  /** The HTTP status it stands for at the edge. */
  status: number;
  code: string;
  message: string;
  issues?: ErrorIssue[];
}

export type RpcResult<T> = { ok: true; value: T } | { ok: false; error: RpcError };

/** A JSON object, as records and verify responses are. */
export type JsonRecord = Record<string, unknown>;

// ── model proxy ────────────────────────────────────────────────────────────────────────────────────────────

/**
 * The policy model a caller names for its rollouts instead of the configured one (a trainer serving the policy from
 * its own vLLM). Checked at the gateway; used by the model proxy for that call only, without the configured API key.
 */
export interface PolicyModel {
  /** OpenAI-compatible base URL(s) ending in /v1; several serve one model, a rollout's turns stay on one. */
  baseUrls?: string[];
  /** The served model name; required with baseUrls. */
  model?: string;
}

/** The model options a rollout (and each of its model calls) may carry: the policy model and whether token ids come back. */
export interface ModelChoice {
  policy?: PolicyModel;
  /** Token ids and logprobs on each model call's last item (NeMo Gym's return_token_id_information); the proxy's setting otherwise. */
  returnTokenIds?: boolean;
  /**
   * How the model sees the environment's tools. `mcp`: as an MCP client harness shows them (NeMo Gym's
   * claude_code_agent): the environment's listing named `mcp__<environment>__<tool>`, calls routed back to the bare
   * tool, the record keeping the names the model wrote. Unset or `plain`: the row's tools as they are.
   */
  toolNames?: "plain" | "mcp";
}

export interface ModelCallOptions extends ModelChoice {
  /** The rollout's session: all its turns go to the same upstream (its prefix cache). */
  sessionId?: string;
  /** The caller's remaining time for this call; the proxy gives up (and stops retrying) by then. */
  timeoutMs?: number;
}

export interface ModelRpc {
  /** One model turn: Responses-API params in, a Responses `Response` out (NeMo Gym's /v1/responses). */
  respond(params: ResponsesCreateParams, options?: ModelCallOptions): Promise<RpcResult<ModelResponse>>;
}

// ── environments ───────────────────────────────────────────────────────────────────────────────────────────

interface DescriptionBase {
  name: string;
  description: string;
  stateful: boolean;
  /** The tools the model sees (a gymnasium environment's step runs them). */
  tools: FunctionTool[];
  /** The environment's own cap on model turns, when it declares one. */
  max_steps?: number;
  /** Example rows bundled with the Worker (the first of its data/example.jsonl), for the dashboard. */
  examples?: DatasetRow[];
}

/** What GET /tools answers and describe() returns: NeMo Gym's simple resources server, or a gymnasium (reset/step) one. */
export type EnvironmentDescription = (DescriptionBase & { kind: "simple" }) | (DescriptionBase & { kind: "gymnasium" });

/** An operation's answer: the HTTP status NeMo Gym's route gives and its JSON body (a tool's output, an error envelope…). */
export interface Outcome {
  status: number;
  body: unknown;
}

/** The answer of an operation that opens a session (seed, reset): the session id the later calls carry. */
export interface SessionOutcome extends Outcome {
  sessionId: string;
}

/** A step request: the row and the model's response for this turn (plus NeMo Gym's step request id, when asked). */
export type StepRequest = DatasetRow & { response: ModelResponse; _ng_step_request_id?: string };

/**
 * Whom a session belongs to: the rollout it serves and the name of the caller's token (never the token). A session id
 * is signed over both, so only the caller that opened it, for that rollout, can use it.
 */
export interface SessionOwner {
  rollout: string;
  token: string;
}

export interface EnvironmentRpc {
  describe(): Promise<EnvironmentDescription>;
  /** NeMo Gym's /seed_session: opens a session for the row, owned by `owner`. */
  seed(row: DatasetRow, owner: SessionOwner): Promise<SessionOutcome>;
  /** A tool call with the model's (JSON-decoded) arguments; the body is what the model sees. */
  tool(sessionId: string, name: string, args: unknown, owner: SessionOwner): Promise<Outcome>;
  /**
   * NeMo Gym's /verify. On 200 the body holds the verifier's fields only (`reward`, its extras, the task fields as parsed):
   * the verify response is the request with these added, which the caller has already.
   */
  verify(sessionId: string, request: VerifyRequest, owner: SessionOwner): Promise<Outcome>;
  /** Gymnasium: opens an episode. */
  reset(row: DatasetRow, owner: SessionOwner): Promise<SessionOutcome>;
  step(sessionId: string, request: StepRequest, owner: SessionOwner): Promise<Outcome>;
  close(sessionId: string, owner: SessionOwner): Promise<Outcome>;
  /** NeMo Gym's /aggregate_metrics over verify responses streamed as JSON Lines (bounded memory on the caller's side). */
  aggregateMetrics(verifyResponses: ReadableStream<Uint8Array>): Promise<RpcResult<AggregateMetrics>>;
}

/** A session Durable Object: every operation of one session runs there, next to its state. */
export interface SessionRpc {
  /**
   * `opens` marks the operation that opens the session (seed, reset); any other operation on an object that was never
   * opened, or whose state has expired, is refused rather than run on a blank state.
   */
  perform(operation: SessionOperation, body: unknown, sessionId: string, trusted: boolean, opens?: boolean): Promise<Outcome>;
}

export type SessionOperation =
  | { kind: "seed_session" }
  | { kind: "verify" }
  | { kind: "tool"; name: string }
  | { kind: "reset" }
  | { kind: "step" }
  | { kind: "close" };

// ── agent ──────────────────────────────────────────────────────────────────────────────────────────────────

export interface RunOptions extends ModelChoice {
  /** The environment, when the row's agent_ref does not name one. */
  environment?: string;
  /** A cap on model turns for this rollout. */
  maxSteps?: number;
  /** The name of the caller's token: the environment sessions of the rollout are bound to it. */
  caller?: string;
  /** The gateway's request id, for the agent's log lines about this rollout. */
  requestId?: string;
}

export interface AgentRpc {
  /** One rollout of a validated row: the scored record (NeMo Gym's verify response plus bookkeeping), or why not. */
  run(row: DatasetRow, options?: RunOptions): Promise<RpcResult<JsonRecord>>;
  /** A job was cancelled: every rollout runner drops its rollouts not yet started (answers how many). */
  cancelled(jobId: string): Promise<{ dropped: number }>;
}

/**
 * A Durable Object namespace whose stubs offer the object's RPC methods. (workers-types' own `DurableObjectNamespace<T>`
 * maps method types through `Rpc.Provider`, which turns open JSON shapes such as `Record<string, unknown>` into `never`.)
 */
export interface ObjectNamespace<T> {
  idFromName(name: string): DurableObjectId;
  get(id: DurableObjectId): DurableObjectStub & T;
  getByName(name: string): DurableObjectStub & T;
}

// The binding types Workers see: a service binding's fetch plus the entrypoint's RPC methods.
export type ModelService = Fetcher & ModelRpc;
export type EnvironmentService = Fetcher & EnvironmentRpc;
export type AgentService = Fetcher & AgentRpc;
export type SessionNamespace = ObjectNamespace<SessionRpc>;

// ── gateway ────────────────────────────────────────────────────────────────────────────────────────────────

/** A token bucket per token name: whether one more request may go now, else how long until it may. */
export interface RateLimiterRpc {
  take(ratePerSecond: number, burst: number): Promise<{ ok: true } | { ok: false; retryAfterSeconds: number }>;
  /** Seconds until `take` would succeed, taking nothing: 0 when it would now. */
  wait(ratePerSecond: number, burst: number): Promise<number>;
}

/** The deployment's count of /run calls (and job uploads) in flight: a slot, or a refusal at once. */
export interface AdmissionRpc {
  /** A refusal says how long to wait: at least `minRetryAfterSeconds`, longer the more callers are waiting. */
  acquire(
    limit: number,
    leaseSeconds: number,
    minRetryAfterSeconds: number,
  ): Promise<{ ok: true; lease: string } | { ok: false; inFlight: number; retryAfterSeconds: number }>;
  release(lease: string): Promise<void>;
}

export type RateLimiterNamespace = ObjectNamespace<RateLimiterRpc>;
export type AdmissionNamespace = ObjectNamespace<AdmissionRpc>;

/** Thrown by `within` when the caller's signal ends before the call answers. */
export class DeadlineError extends Error {
  constructor(what: string) {
    super(`${what} did not answer in time`);
    this.name = "DeadlineError";
  }
}

/**
 * An RPC call bounded by the caller's signal: an RPC promise cannot be aborted, so the caller stops waiting instead (the
 * callee bounds its own work with the timeout it was given).
 */
export function within<T>(call: Promise<T>, signal: AbortSignal, what: string): Promise<T> {
  if (signal.aborted) return Promise.reject(new DeadlineError(what));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new DeadlineError(what));
    signal.addEventListener("abort", onAbort, { once: true });
    call.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/**
 * `within` for a plain time bound: one timer, cleared when the call answers. AbortSignal.timeout's timer stays armed for
 * its whole span after the call is done (minutes, on a hot path that runs per model turn or tool call).
 */
export function withinMs<T>(call: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new DeadlineError(what)), Math.max(0, ms));
    call.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/**
 * Releases what an RPC result holds on the other side (workerd attaches a disposer to results; one whose call carried a
 * stream keeps the callee's side open until it is called, and the runtime warns when the garbage collector finds it first).
 */
export function release(value: unknown): void {
  // Symbol.dispose is read off Symbol at run time: this module is also compiled for browsers without it in their lib.
  const key = (Symbol as { dispose?: symbol }).dispose;
  if (!key || value === null || typeof value !== "object") return;
  const dispose: unknown = (value as Record<symbol, unknown>)[key];
  if (typeof dispose === "function") dispose.call(value);
}

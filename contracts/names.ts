// Names several sides share: Workers, bindings, entrypoints, queues, classes, headers and reserved routes.

/** Service binding name under which the gateway, agent and writer reach an environment's Worker. */
export function environmentBinding(name: string): `ENV_${string}` {
  return `ENV_${name.toUpperCase()}`;
}

/** Worker script name of an environment's resources server. */
export function environmentWorkerName(name: string): string {
  return `resources-${name.replace(/_/g, "-")}`;
}

export const WORKERS = { gateway: "gateway", agent: "agent", modelProxy: "model-proxy", judgeProxy: "judge-proxy", writer: "writer" } as const;

/** The named RPC entrypoints each Worker exports beside its default (HTTP, queue) handler. */
export const ENTRYPOINTS = { agent: "AgentEntrypoint", model: "ModelEntrypoint", environment: "EnvironmentEntrypoint" } as const;

/** Queue names: work flows on `rollouts`, scored rollouts and failures on `results`. */
export const QUEUES = {
  rollouts: "edgegym-rollouts",
  results: "edgegym-results",
  rolloutsDlq: "edgegym-rollouts-dlq",
  resultsDlq: "edgegym-results-dlq",
} as const;

/** The Job Durable Object class, hosted by the writer. */
export const JOB_CLASS = "Job";
/** The session Durable Object class every environment Worker hosts. */
export const SESSION_CLASS = "EnvironmentSession";
/** The gateway's Durable Objects: one token bucket per token name, and one admission counter for the deployment. */
export const RATE_LIMITER_CLASS = "TokenRateLimiter";
export const ADMISSION_CLASS = "Admission";
/** The rollout runner Durable Object class, hosted by the agent (contracts/runner.ts). */
export const RUNNER_CLASS = "RolloutRunner";

/** The header that carries a session id (NeMo Gym uses a cookie; both are read). */
export const SESSION_HEADER = "x-session-id";
/** The cookie edgegym sets with a new session id. */
export const SESSION_COOKIE = "edgegym_session";
/** The name of the token a request came with, set by the gateway on what it forwards (the token itself never travels on). */
export const CALLER_HEADER = "x-edgegym-caller";
/** Every answer's request id: the caller's when well-formed, else one the gateway makes up. */
export const REQUEST_ID_HEADER = "x-request-id";
/** Names the environment of a /run request when the row has no agent_ref. */
export const ENVIRONMENT_HEADER = "x-edgegym-environment";

/** Routes every resources server has; a tool may not take these names, and a model's tool call never reaches them. */
export const RESERVED_ROUTES: ReadonlySet<string> = new Set(["seed_session", "verify", "aggregate_metrics", "tools", "health"]);

export function environmentNames(list: string): string[] {
  return list
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
}

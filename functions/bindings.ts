// Binding names and the bindings each Worker receives, in one module the Workers, local emulation and tests share.
import type { EnvironmentSessionNamespace } from "../environments/sdk/durable-types.js";
import { environmentBinding, environmentNames } from "./names.js";

export * from "./names.js";

/** What the jobs path needs, shared by the gateway and the agent. */
export interface JobsBindings {
  BUCKET: R2Bucket;
  ROLLOUTS: Queue;
  JOBS: DurableObjectNamespace;
}

export type EnvironmentFetchers = { [binding: `ENV_${string}`]: Fetcher | undefined };

export interface GatewayEnv extends EnvironmentFetchers, JobsBindings {
  AGENT: Fetcher;
  MODEL_PROXY: Fetcher;
  /** Comma-separated names of the environments deployed with this gateway. */
  ENVIRONMENTS: string;
  /** Comma-separated bearer tokens; unset means open (local emulation only). */
  API_TOKENS?: string;
}

export interface AgentEnv extends EnvironmentFetchers, JobsBindings {
  MODEL_PROXY: Fetcher;
  RESULTS: Queue;
  /** Attempts of a rollout before it becomes a failure record (default 3). */
  MAX_ATTEMPTS?: string;
  /** Backoff base for retried rollouts, in seconds (default 1: 2 s, 4 s, 8 s… with jitter, capped at 60 s). */
  RETRY_BASE_SECONDS?: string;
  /** Rollouts of one queue batch run at once (default 32). */
  BATCH_CONCURRENCY?: string;
  ENVIRONMENTS: string;
  MAX_STEPS?: string;
  ROLLOUT_TIMEOUT_MS?: string;
  TOOL_TIMEOUT_MS?: string;
  MODEL_TIMEOUT_MS?: string;
}

export interface ModelProxyEnv {
  MODEL_BASE_URL: string;
  MODEL_NAME: string;
  MODEL_API_KEY?: string;
  MODEL_TIMEOUT_MS?: string;
  MODEL_MAX_RETRIES?: string;
}

export interface WriterEnv extends EnvironmentFetchers {
  BUCKET: R2Bucket;
  ENVIRONMENTS: string;
  JOBS: DurableObjectNamespace;
}

export interface EnvironmentEnv {
  SESSIONS?: EnvironmentSessionNamespace;
  /** The judge's model proxy (a model proxy configured with the judge model). */
  JUDGE?: Fetcher;
  SESSION_TTL_SECONDS?: string;
}


/** An environment's Worker, if it is deployed with this one. */
export function environmentFetcher(env: EnvironmentFetchers & { ENVIRONMENTS: string }, name: string): Fetcher | undefined {
  if (!environmentNames(env.ENVIRONMENTS).includes(name)) return undefined;
  return env[environmentBinding(name)];
}

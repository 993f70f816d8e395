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

/** The model proxy's variables; every one but MODEL_NAME and an upstream URL is optional. See functions/model-proxy/config.ts. */
export interface ModelProxyEnv {
  /** The policy model's OpenAI-compatible base URL, ending in /v1 (one upstream). */
  MODEL_BASE_URL?: string;
  /** Comma-separated base URLs of several vLLM servers; wins over MODEL_BASE_URL. A session's turns stick to one. */
  MODEL_BASE_URLS?: string;
  /** The served model name sent upstream, whatever the caller asked for. */
  MODEL_NAME: string;
  MODEL_API_KEY?: string;
  /** Timeout of one upstream attempt, in ms (default 300000). */
  MODEL_TIMEOUT_MS?: string;
  /** Attempts per model call, the first included (default 3). */
  MODEL_MAX_ATTEMPTS?: string;
  /** Older name: retries after the first attempt (MODEL_MAX_ATTEMPTS = this + 1); MODEL_MAX_ATTEMPTS wins. */
  MODEL_MAX_RETRIES?: string;
  /** Backoff before retrying the same upstream: base and cap in ms, doubled per attempt, with jitter (defaults 250, 8000). */
  MODEL_RETRY_BASE_MS?: string;
  MODEL_RETRY_MAX_MS?: string;
  /** How long an upstream that keeps failing to answer is skipped, in ms (default 30000). */
  MODEL_UNHEALTHY_MS?: string;
  /** "true": ask vLLM for token ids and logprobs and attach them to each model call's last output item (NeMo Gym's flag). */
  RETURN_TOKEN_ID_INFORMATION?: string;
  /** "false" when vLLM runs without a reasoning parser: `<think>` text stays in the content (default "true"). */
  USES_REASONING_PARSER?: string;
  /** "false" keeps `developer` messages as they are; by default they reach the chat template as `system`. */
  REPLACE_DEVELOPER_ROLE_WITH_SYSTEM?: string;
  /** JSON object: chat_template_kwargs on every request (a row's metadata.chat_template_kwargs adds to it). */
  CHAT_TEMPLATE_KWARGS?: string;
  /** JSON object merged under every upstream body (the request's own fields win; a row's metadata.extra_body adds to it). */
  EXTRA_BODY?: string;
  /** JSON object of sampling params forced onto every upstream body, over what the caller sent (on-policy sampling). */
  SAMPLING_OVERRIDES?: string;
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

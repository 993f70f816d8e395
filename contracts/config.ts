// Each Worker's variables as a zod schema: parsed once per isolate into a typed config, a bad value named at start-up.
import { z } from "zod";
import { PolicyUrlAllow } from "./outbound.js";
import { ApiTokens } from "./tokens.js";
import { TenantQuotasVar } from "./quotas.js";

/** A variable that is unset or empty takes its default. */
const unset = (value: unknown) => (value === "" ? undefined : value);

function integer(min: number, fallback: number) {
  return z.preprocess(
    unset,
    z.coerce.number({ error: "must be a number" }).int(`must be an integer ≥ ${min}`).min(min, `must be an integer ≥ ${min}`).default(fallback),
  );
}

function number(min: number, fallback: number) {
  return z.preprocess(unset, z.coerce.number({ error: "must be a number" }).min(min, `must be ≥ ${min}`).default(fallback));
}

function flag(fallback: boolean) {
  return z.preprocess(
    (value) => (typeof value === "string" ? unset(value.trim().toLowerCase()) : value),
    z
      .enum(["true", "false", "1", "0"], { error: 'must be "true" or "false"' })
      .optional()
      .transform((v) => (v === undefined ? fallback : v === "true" || v === "1")),
  );
}

function jsonObject() {
  return z.preprocess((value, ctx) => {
    if (typeof value !== "string" || value.trim() === "") return undefined;
    try {
      return JSON.parse(value);
    } catch {
      ctx.issues.push({ code: "custom", message: "is not valid JSON", input: value });
      return z.NEVER;
    }
  }, z.record(z.string(), z.unknown(), { error: "must be a JSON object" }).optional());
}

/** A comma-separated list. */
function list() {
  return z.preprocess(
    (value) =>
      typeof value === "string"
        ? value
            .split(",")
            .map((item) => item.trim())
            .filter(Boolean)
        : [],
    z.array(z.string()),
  );
}

const optionalText = z.preprocess(unset, z.string().optional());

export const LOG_LEVELS = ["debug", "info", "warn", "error", "silent"] as const;
/** Every Worker's log level (http/log.ts): info unless set; tests run silent unless EDGEGYM_TEST_LOGS is set. */
const logLevel = z.preprocess(
  (value) => (typeof value === "string" ? unset(value.trim().toLowerCase()) : value),
  z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(", ")}` }).optional(),
);

/** A share of calls to fail on purpose (0–1): chaos testing only, never set in a deployment. */
function rate() {
  return z.preprocess(unset, z.coerce.number({ error: "must be a number" }).min(0, "must be between 0 and 1").max(1, "must be between 0 and 1").default(0));
}

/** Faults the chaos suite injects through the ports: writes to the bucket and sends to the queues that fail. */
const chaos = {
  CHAOS_STORE_WRITE_FAILURE_RATE: rate(),
  CHAOS_QUEUE_SEND_FAILURE_RATE: rate(),
};

export const GatewayVars = z.object({
  /** Comma-separated names of the environments deployed with this gateway. */
  ENVIRONMENTS: list(),
  /** `name:token:scope+scope` entries (contracts/tokens.ts); none means every route but /health answers 401. */
  API_TOKENS: ApiTokens,
  /** Per-tenant quotas, `name:jobs=20+rollouts=200000+bytes=2GiB+in_flight=64` entries, `*` the default (contracts/quotas.ts); unset: none. */
  TENANT_QUOTAS: TenantQuotasVar,
  /** Largest JSON body a route reads (/run, the model routes, environments, JSON job requests), in bytes: 413 beyond. */
  MAX_BODY_BYTES: integer(1, 8 * 1024 * 1024),
  /** Largest streamed upload (a JSONL job body, PUT /v1/files/<name>), in bytes. */
  MAX_UPLOAD_BYTES: integer(1, 100 * 1024 * 1024),
  /**
   * How long a JSON body may take to arrive, in seconds (read whole before the request takes a slot): 408 body_timeout
   * beyond. A streamed upload's first byte must come within this long too, and it is paced over windows of this length.
   */
  BODY_TIMEOUT_SECONDS: number(0.1, 10),
  /** A streamed upload slower than this (bytes a second, averaged over BODY_TIMEOUT_SECONDS of waiting) is cut: 408. */
  MIN_UPLOAD_BYTES_PER_SECOND: number(0, 1024),
  /** Caps on a job: repeats per row, rows, and rows × repeats. */
  MAX_NUM_REPEATS: integer(1, 1024),
  MAX_JOB_ROWS: integer(1, 1_000_000),
  MAX_JOB_ROLLOUTS: integer(1, 10_000_000),
  /** Requests per second each token name may make (a token bucket refilled at this rate); 0 turns the limit off. */
  RATE_LIMIT_PER_SECOND: number(0, 500),
  /** The bucket's size: how many requests a token may make at once after a quiet spell. */
  RATE_LIMIT_BURST: integer(1, 5000),
  /** /run calls and job uploads in flight at once for the whole deployment; the rest get 503 with Retry-After. */
  MAX_IN_FLIGHT: integer(1, 1024),
  /** The shortest Retry-After a refused /run is told, in seconds (longer while many callers wait; at most 60). */
  ADMISSION_RETRY_AFTER_SECONDS: integer(1, 1),
  /** A slot whose holder never gave it back (an isolate that died) is taken back after this long, in seconds. */
  ADMISSION_LEASE_SECONDS: integer(1, 960),
  /** How long /run waits for the agent: longer than the agent's ROLLOUT_TIMEOUT_MS (whose deadline ends a rollout first). */
  RUN_TIMEOUT_MS: integer(1, 960_000),
  /** "false": no request log line (the gateway's access log) per request. */
  LOG_REQUESTS: flag(true),
  /** The hosts a caller's policy_base_url may name (`host[:port]`, `*.domain`); none by default (contracts/outbound.ts). */
  POLICY_URL_ALLOW: PolicyUrlAllow,
  LOG_LEVEL: logLevel,
});
export type GatewayConfig = z.output<typeof GatewayVars>;

export const AgentVars = z.object({
  ENVIRONMENTS: list(),
  /** Attempts of a rollout before it becomes a failure record. */
  MAX_ATTEMPTS: integer(1, 3),
  /** Backoff base for retried rollouts, in seconds: 2 s, 4 s, 8 s… with jitter, capped at 60 s (0 retries at once). */
  RETRY_BASE_SECONDS: number(0, 1),
  /** Rollouts of one queue batch run at once (when the consumer runs them itself: RUNNER_SHARDS=0, or no runner binding). */
  BATCH_CONCURRENCY: integer(1, 32),
  /** Rollout runners the consumer hands rollouts to (Durable Objects; 0: the consumer runs each batch itself). */
  RUNNER_SHARDS: integer(0, 4),
  /** Rollouts in flight at most, over all runners: the window follows the model's latency up to this. */
  RUNNER_MAX_IN_FLIGHT: integer(1, 16_384),
  /** Model turns per rollout unless the request or the environment says otherwise (32 for a simple environment, 10 for a gymnasium one). */
  MAX_STEPS: z.preprocess(unset, z.coerce.number().int().min(1, "must be an integer ≥ 1").optional()),
  ROLLOUT_TIMEOUT_MS: integer(1, 900_000),
  TOOL_TIMEOUT_MS: integer(1, 60_000),
  MODEL_TIMEOUT_MS: integer(1, 300_000),
  LOG_LEVEL: logLevel,
  ...chaos,
});
export type AgentConfig = z.output<typeof AgentVars>;

export const ModelProxyVars = z.object({
  /** The policy model's OpenAI-compatible base URL, ending in /v1 (one upstream). */
  MODEL_BASE_URL: optionalText,
  /** Comma-separated base URLs of several vLLM servers; wins over MODEL_BASE_URL. A session's turns stick to one. */
  MODEL_BASE_URLS: optionalText,
  /** The served model name sent upstream, whatever the caller asked for. */
  MODEL_NAME: z.preprocess(unset, z.string({ error: "is not set" })),
  MODEL_API_KEY: optionalText,
  /** Timeout of one upstream attempt, in ms. */
  MODEL_TIMEOUT_MS: integer(1, 300_000),
  /** Attempts per model call, the first included (default 3; MODEL_MAX_RETRIES + 1 when only that is set). */
  MODEL_MAX_ATTEMPTS: z.preprocess(unset, z.coerce.number().int().min(1, "must be an integer ≥ 1").optional()),
  /** Older name: retries after the first attempt. */
  MODEL_MAX_RETRIES: z.preprocess(unset, z.coerce.number().int().min(0, "must be an integer ≥ 0").optional()),
  /** Backoff before retrying the same upstream: base and cap in ms, doubled per attempt, with jitter. */
  MODEL_RETRY_BASE_MS: integer(0, 250),
  MODEL_RETRY_MAX_MS: integer(0, 8_000),
  /** How long an upstream that keeps failing to answer is skipped, in ms. */
  MODEL_UNHEALTHY_MS: integer(0, 30_000),
  /** "true": ask vLLM for token ids and logprobs and attach them to each model call's last output item (NeMo Gym's flag). */
  RETURN_TOKEN_ID_INFORMATION: flag(false),
  /** "false" when vLLM runs without a reasoning parser: `<think>` text stays in the content. */
  USES_REASONING_PARSER: flag(true),
  /** "false" keeps `developer` messages as they are; by default they reach the chat template as `system`. */
  REPLACE_DEVELOPER_ROLE_WITH_SYSTEM: flag(true),
  /** JSON object: chat_template_kwargs on every request (a row's metadata.chat_template_kwargs adds to it). */
  CHAT_TEMPLATE_KWARGS: jsonObject(),
  /** JSON object merged under every upstream body (the request's own fields win; a row's metadata.extra_body adds to it). */
  EXTRA_BODY: jsonObject(),
  /** JSON object of sampling params forced onto every upstream body, over what the caller sent (on-policy sampling). */
  SAMPLING_OVERRIDES: jsonObject(),
  /** The gateway's POLICY_URL_ALLOW, checked again (with every resolved address and redirect) before each connection. */
  POLICY_URL_ALLOW: PolicyUrlAllow,
  LOG_LEVEL: logLevel,
});
export type ModelProxyVarsOutput = z.output<typeof ModelProxyVars>;

export const WriterVars = z.object({
  ENVIRONMENTS: list(),
  /** A running job that records nothing for this long is stalled: its Job object re-enqueues what is missing. */
  STALL_SECONDS: number(0.1, 900),
  /** Heals of a stalled job before what is still missing becomes dead_letter failure records (so the job completes). */
  MAX_HEALS: integer(0, 3),
  /** Backoff base for results that could not be recorded: base × 2, 4, 8… seconds, capped at 30 s. */
  RETRY_BASE_SECONDS: number(0, 1),
  LOG_LEVEL: logLevel,
  ...chaos,
});
export type WriterConfig = z.output<typeof WriterVars>;

export const EnvironmentVars = z.object({
  /** A session's state is deleted this long after its last use, at most half as long again (its alarm moves once per half-lifetime); a stateless session expires this long after it opened. */
  SESSION_TTL_SECONDS: integer(1, 3600),
  /** The key session ids are signed with (HMAC-SHA256): at least 32 characters, secret, the same for every environment. */
  SESSION_SECRET: z.preprocess(unset, z.string({ error: "is not set" }).min(32, "must be at least 32 characters")),
  /** The deployment's sandbox provider for environments that declare `sandbox` (environments/sdk/sandbox/provider-config.ts). */
  SANDBOX_PROVIDER: z.preprocess(unset, z.enum(["local", "remote", "cloudflare"], { error: 'must be "local", "remote" or "cloudflare"' }).default("local")),
  /** The local or remote sandbox service's base URL (the emulation sets it to the service it starts). */
  SANDBOX_URL: z.preprocess(unset, z.url({ error: "must be a URL" }).optional()),
  LOG_LEVEL: logLevel,
});
export type EnvironmentConfig = z.output<typeof EnvironmentVars>;

/** Every Worker's variables schema, by Worker kind (the topology's vars are checked against these). */
export const WORKER_VARS = {
  gateway: GatewayVars,
  agent: AgentVars,
  modelProxy: ModelProxyVars,
  judgeProxy: ModelProxyVars,
  writer: WriterVars,
  environment: EnvironmentVars,
} as const;
export type WorkerKind = keyof typeof WORKER_VARS;

/** A variable with a value the Worker cannot use: says which Worker, which variable, and why. */
export class ConfigError extends Error {
  constructor(
    readonly worker: string,
    readonly problems: { variable: string; message: string }[],
  ) {
    super(`${worker}: ${problems.map((p) => `${p.variable} ${p.message}`).join("; ")}`);
    this.name = "ConfigError";
  }
}

/** Variables whose values never appear in an error message. */
const SECRET_VARIABLES = new Set(["API_TOKENS", "SESSION_SECRET", "MODEL_API_KEY"]);

export function parseVars<S extends z.ZodType>(schema: S, vars: unknown, worker: string): z.output<S> {
  const result = schema.safeParse(vars);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const variable = String(issue.path[0] ?? "(variables)");
    const shown = issue.path.length && vars && typeof vars === "object" && !SECRET_VARIABLES.has(variable);
    const raw = shown ? (vars as Record<string, unknown>)[variable] : undefined;
    return { variable, message: `${issue.message}${typeof raw === "string" ? `, got "${raw}"` : ""}` };
  });
  throw new ConfigError(worker, problems);
}

/** The config of a Worker's env, parsed once per isolate: the env object is the same for every request it serves. */
export function configCache<S extends z.ZodType>(schema: S, worker: string): (env: object) => z.output<S> {
  const cache = new WeakMap<object, z.output<S>>();
  return (env) => {
    let config = cache.get(env);
    if (config === undefined) {
      config = parseVars(schema, env, worker);
      cache.set(env, config);
    }
    return config;
  };
}

// The model proxy's configuration, read from its Worker variables once per isolate and checked with clear errors.
import { EdgegymError } from "../../protocol/index.js";
import type { ModelProxyEnv } from "../bindings.js";

export type JsonObject = Record<string, unknown>;

export interface ProxyConfig {
  /** Upstream base URLs (OpenAI-compatible, ending in /v1), without a trailing slash. */
  upstreams: string[];
  model: string;
  apiKey?: string;
  timeoutMs: number;
  maxAttempts: number;
  retryBaseMs: number;
  retryMaxMs: number;
  unhealthyMs: number;
  returnTokenIds: boolean;
  reasoningParser: boolean;
  developerAsSystem: boolean;
  chatTemplateKwargs?: JsonObject;
  extraBody?: JsonObject;
  samplingOverrides?: JsonObject;
}

export const DEFAULTS = {
  timeoutMs: 300_000,
  maxAttempts: 3,
  retryBaseMs: 250,
  retryMaxMs: 8_000,
  unhealthyMs: 30_000,
} as const;

function misconfigured(message: string): never {
  throw new EdgegymError(500, "model_proxy_misconfigured", message);
}

function integer(env: ModelProxyEnv, name: keyof ModelProxyEnv, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) misconfigured(`${name} must be an integer ≥ ${min}, got "${raw}"`);
  return value;
}

function flag(env: ModelProxyEnv, name: keyof ModelProxyEnv, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === "") return fallback;
  if (raw === "true" || raw === "1") return true;
  if (raw === "false" || raw === "0") return false;
  return misconfigured(`${name} must be "true" or "false", got "${env[name]}"`);
}

function object(env: ModelProxyEnv, name: keyof ModelProxyEnv): JsonObject | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    misconfigured(`${name} is not valid JSON`);
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) misconfigured(`${name} must be a JSON object`);
  return value as JsonObject;
}

function upstreams(env: ModelProxyEnv): string[] {
  const list = (env.MODEL_BASE_URLS || env.MODEL_BASE_URL || "")
    .split(",")
    .map((url) => url.trim().replace(/\/+$/, ""))
    .filter(Boolean);
  if (list.length === 0) misconfigured("set MODEL_BASE_URL (or MODEL_BASE_URLS) to the model's OpenAI-compatible base URL");
  for (const url of list) if (!/^https?:\/\//.test(url)) misconfigured(`upstream "${url}" is not an http(s) URL`);
  return [...new Set(list)];
}

export function readConfig(env: ModelProxyEnv): ProxyConfig {
  const retries = env.MODEL_MAX_RETRIES ? integer(env, "MODEL_MAX_RETRIES", 0, 0) + 1 : DEFAULTS.maxAttempts;
  return {
    upstreams: upstreams(env),
    model: env.MODEL_NAME || misconfigured("MODEL_NAME is not set"),
    ...(env.MODEL_API_KEY ? { apiKey: env.MODEL_API_KEY } : {}),
    timeoutMs: integer(env, "MODEL_TIMEOUT_MS", DEFAULTS.timeoutMs, 1),
    maxAttempts: integer(env, "MODEL_MAX_ATTEMPTS", retries, 1),
    retryBaseMs: integer(env, "MODEL_RETRY_BASE_MS", DEFAULTS.retryBaseMs, 0),
    retryMaxMs: integer(env, "MODEL_RETRY_MAX_MS", DEFAULTS.retryMaxMs, 0),
    unhealthyMs: integer(env, "MODEL_UNHEALTHY_MS", DEFAULTS.unhealthyMs, 0),
    returnTokenIds: flag(env, "RETURN_TOKEN_ID_INFORMATION", false),
    reasoningParser: flag(env, "USES_REASONING_PARSER", true),
    developerAsSystem: flag(env, "REPLACE_DEVELOPER_ROLE_WITH_SYSTEM", true),
    chatTemplateKwargs: object(env, "CHAT_TEMPLATE_KWARGS"),
    extraBody: object(env, "EXTRA_BODY"),
    samplingOverrides: object(env, "SAMPLING_OVERRIDES"),
  };
}

// The env object is the same for every request an isolate serves: read it once, not per request.
const cache = new WeakMap<object, ProxyConfig>();

export function proxyConfig(env: ModelProxyEnv): ProxyConfig {
  let config = cache.get(env);
  if (!config) {
    config = readConfig(env);
    cache.set(env, config);
  }
  return config;
}

// The model proxy's configuration, read from its Worker variables once per isolate and checked with clear errors.
import { EdgegymError } from "../../protocol/index.js";
import { ConfigError, ModelProxyVars, type ModelProxyVarsOutput, parseVars } from "../../contracts/config.js";
import { type Logger, logLevelOf, workerLogger } from "../../http/log.js";
import type { ModelProxyEnv } from "../../contracts/env.generated.js";
import type { AllowRule } from "../../contracts/outbound.js";
import type { OutboundPolicy } from "../../http/outbound/fetch.js";

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
  /** A caller's own upstreams (for one call): their health is not recorded in the isolate's shared pool state. */
  isolated?: boolean;
  /** POLICY_URL_ALLOW: the hosts a caller's policy URL may name (none when unset). */
  policyAllow: AllowRule[];
  /** For a caller's own upstreams: every connection (and redirect) checked against the allow-list and the address policy. */
  outbound?: OutboundPolicy;
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

function upstreams(vars: ModelProxyVarsOutput): string[] {
  const list = (vars.MODEL_BASE_URLS || vars.MODEL_BASE_URL || "")
    .split(",")
    .map((url) => url.trim().replace(/\/+$/, ""))
    .filter(Boolean);
  if (list.length === 0) misconfigured("set MODEL_BASE_URL (or MODEL_BASE_URLS) to the model's OpenAI-compatible base URL");
  list.forEach((url, i) => {
    if (!/^https?:\/\//.test(url)) misconfigured(`upstream #${i} is not an http(s) URL`);
  });
  return [...new Set(list)];
}

export function readConfig(env: Partial<Record<keyof ModelProxyEnv, string>>): ProxyConfig {
  let vars: ModelProxyVarsOutput;
  try {
    vars = parseVars(ModelProxyVars, env, "model proxy");
  } catch (error) {
    if (error instanceof ConfigError) misconfigured(error.message);
    throw error;
  }
  return {
    upstreams: upstreams(vars),
    model: vars.MODEL_NAME,
    ...(vars.MODEL_API_KEY ? { apiKey: vars.MODEL_API_KEY } : {}),
    timeoutMs: vars.MODEL_TIMEOUT_MS,
    maxAttempts: vars.MODEL_MAX_ATTEMPTS ?? (vars.MODEL_MAX_RETRIES !== undefined ? vars.MODEL_MAX_RETRIES + 1 : DEFAULTS.maxAttempts),
    retryBaseMs: vars.MODEL_RETRY_BASE_MS,
    retryMaxMs: vars.MODEL_RETRY_MAX_MS,
    unhealthyMs: vars.MODEL_UNHEALTHY_MS,
    returnTokenIds: vars.RETURN_TOKEN_ID_INFORMATION,
    reasoningParser: vars.USES_REASONING_PARSER,
    developerAsSystem: vars.REPLACE_DEVELOPER_ROLE_WITH_SYSTEM,
    chatTemplateKwargs: vars.CHAT_TEMPLATE_KWARGS,
    extraBody: vars.EXTRA_BODY,
    samplingOverrides: vars.SAMPLING_OVERRIDES,
    policyAllow: vars.POLICY_URL_ALLOW,
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

/** The proxy's logger, at its LOG_LEVEL (read without the rest of the config, so a misconfigured proxy can still log). */
export function proxyLog(env: ModelProxyEnv): Logger {
  return workerLogger("model-proxy", logLevelOf(env.LOG_LEVEL));
}

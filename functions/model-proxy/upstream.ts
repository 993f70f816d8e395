// The policy model upstream (vLLM or any OpenAI-compatible server), reached with the official `openai` client.
import OpenAI from "openai";
import { EdgegymError } from "../../protocol/index.js";
import type { ModelProxyEnv } from "../bindings.js";

const DEFAULT_TIMEOUT_MS = 300_000;
const DEFAULT_MAX_RETRIES = 2;

let cached: { key: string; client: OpenAI } | undefined;

/** One client per isolate and configuration, so connections are reused across requests. */
export function upstreamClient(env: ModelProxyEnv): OpenAI {
  if (!env.MODEL_BASE_URL) throw new EdgegymError(500, "model_not_configured", "MODEL_BASE_URL is not set for the model proxy");
  const key = `${env.MODEL_BASE_URL}|${env.MODEL_API_KEY ?? ""}|${env.MODEL_TIMEOUT_MS ?? ""}|${env.MODEL_MAX_RETRIES ?? ""}`;
  if (cached?.key !== key) {
    cached = {
      key,
      client: new OpenAI({
        baseURL: env.MODEL_BASE_URL,
        apiKey: env.MODEL_API_KEY || "EMPTY",
        timeout: Number(env.MODEL_TIMEOUT_MS ?? DEFAULT_TIMEOUT_MS),
        maxRetries: Number(env.MODEL_MAX_RETRIES ?? DEFAULT_MAX_RETRIES),
      }),
    };
  }
  return cached.client;
}

/** Upstream failures as our envelope: the caller learns whose fault it was and what the upstream said. */
export function upstreamError(error: unknown, baseUrl: string): EdgegymError {
  if (error instanceof EdgegymError) return error;
  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    return new EdgegymError(504, "upstream_timeout", `the model at ${baseUrl} did not answer in time`);
  }
  if (error instanceof OpenAI.APIConnectionError) {
    return new EdgegymError(502, "upstream_unreachable", `cannot reach the model at ${baseUrl}: ${error.message}`);
  }
  if (error instanceof OpenAI.APIError) {
    const status = error.status ?? 502;
    if (status === 401 || status === 403) {
      return new EdgegymError(502, "upstream_auth", `the model at ${baseUrl} refused our credentials (${status}): check MODEL_API_KEY`);
    }
    if (status === 400 || status === 404 || status === 422) {
      return new EdgegymError(400, "upstream_rejected", `the model at ${baseUrl} rejected the request (${status}): ${error.message}`);
    }
    return new EdgegymError(502, "upstream_error", `the model at ${baseUrl} failed (${status}): ${error.message}`);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new EdgegymError(502, "upstream_error", `the model at ${baseUrl} failed: ${message}`);
}

/** A raw request to the upstream, for routes passed through as they are; bounded by the same timeout. */
export async function upstreamFetch(env: ModelProxyEnv, path: string, init: RequestInit & { signal: AbortSignal }): Promise<Response> {
  if (!env.MODEL_BASE_URL) throw new EdgegymError(500, "model_not_configured", "MODEL_BASE_URL is not set for the model proxy");
  const timeout = AbortSignal.timeout(Number(env.MODEL_TIMEOUT_MS ?? DEFAULT_TIMEOUT_MS));
  try {
    return await fetch(`${env.MODEL_BASE_URL.replace(/\/+$/, "")}${path}`, {
      ...init,
      signal: AbortSignal.any([init.signal, timeout]),
      headers: {
        "content-type": "application/json",
        ...(env.MODEL_API_KEY ? { authorization: `Bearer ${env.MODEL_API_KEY}` } : {}),
      },
    });
  } catch (error) {
    if (timeout.aborted) throw new EdgegymError(504, "upstream_timeout", `the model at ${env.MODEL_BASE_URL} did not answer in time`);
    const message = error instanceof Error ? error.message : String(error);
    throw new EdgegymError(502, "upstream_unreachable", `cannot reach the model at ${env.MODEL_BASE_URL}: ${message}`);
  }
}

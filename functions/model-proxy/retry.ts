// One upstream call, bounded: a timeout per attempt, a fixed attempt budget, backoff with jitter, failover across the pool.
import type { Logger } from "../../http/log.js";
import { outboundFetch } from "../../http/outbound/fetch.js";
import { printable, upstreamReason } from "../../http/outbound/reason.js";
import { EdgegymError } from "../../protocol/index.js";
import type { ProxyConfig } from "./config.js";
import { redact, upstreamName } from "./redact.js";
import { candidates, pick, recordFailure, recordSuccess } from "./upstream.js";

export interface UpstreamCall<T> {
  /** Path under the base URL ("/chat/completions"), or from the server root when `root` is set (vLLM's /tokenize). */
  path: string;
  root?: boolean;
  method: "GET" | "POST";
  body?: string;
  sessionId?: string;
  /** Only this upstream (e.g. /tokenize on the server that generated). */
  pinned?: string;
  /** The caller's signal: when it aborts, so does the call, backoff included. */
  signal?: AbortSignal;
  /** The caller's deadline (epoch ms), as an RPC caller gives it: no attempt or backoff runs past it. */
  deadlineAt?: number;
  /** Reads a 200 body; throws `MalformedBody` for one that cannot be used, which is retried. */
  accept: (json: unknown) => T;
  /** NeMo Gym's rule: a context-length 400 is an answer (an empty, incomplete turn), not a failure. */
  contextLengthIsAnswer?: boolean;
  /** Where each failed attempt is logged (its upstream by position in the pool, never its address). */
  log?: Logger;
}

export type UpstreamResult<T> =
  | { kind: "ok"; value: T; upstream: string; attempts: number }
  | { kind: "context_length"; message: string; upstream: string; attempts: number };

/** A 200 whose body the proxy cannot use (not JSON, or not the expected shape). */
export class MalformedBody extends Error {
  override name = "MalformedBody";
}

const RETRY_STATUSES = new Set([429, 500, 502, 503, 504]);
/** Statuses that say the server itself is in trouble: try the next upstream, and count it against its health. */
const CONNECTION_STATUSES = new Set([502, 503, 504]);

interface Failure {
  /** `connection`: move on to another upstream; `soft`: the same one again, after a backoff. */
  kind: "connection" | "soft";
  timeout?: boolean;
  describe: string;
  retryAfterMs?: number;
}

function upstreamUrl(base: string, call: UpstreamCall<unknown>): string {
  return `${call.root ? base.replace(/\/v1$/, "") : base}${call.path}`;
}

/**
 * An error body as a short sanitized reason (its envelope's message, control characters out, ~200 characters), never the
 * body itself; the pool's addresses are replaced by their names first, so a cut never leaves half of one.
 */
export function errorMessage(config: Pick<ProxyConfig, "upstreams">, text: string): string {
  return upstreamReason(redact(config, text));
}

function retryAfter(response: Response): number | undefined {
  const value = Number(response.headers.get("retry-after"));
  return Number.isFinite(value) && value > 0 ? value * 1000 : undefined;
}

/** Exponential backoff with jitter (half fixed, half random), capped; a server's Retry-After counts, within the cap. */
export function backoffMs(config: ProxyConfig, retry: number, retryAfterMs?: number): number {
  const exponential = Math.min(config.retryMaxMs, config.retryBaseMs * 2 ** (retry - 1));
  const jittered = exponential / 2 + (Math.random() * exponential) / 2;
  return Math.min(config.retryMaxMs, Math.max(jittered, retryAfterMs ?? 0));
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", abort);
      resolve();
    }, ms);
    const abort = (): void => {
      clearTimeout(timer);
      reject(aborted());
    };
    if (signal?.aborted) abort();
    else signal?.addEventListener("abort", abort, { once: true });
  });
}

function aborted(): EdgegymError {
  return new EdgegymError(504, "upstream_aborted", "the caller gave up on the model call");
}

/** A final, non-retryable answer from the upstream, as our envelope (naming the upstream by its index, never its URL). */
function refusal(config: ProxyConfig, base: string, status: number, text: string): EdgegymError {
  const detail = errorMessage(config, text);
  const url = upstreamName(config, base);
  if (status === 401 || status === 403) {
    return new EdgegymError(
      502,
      "upstream_auth",
      `configuration: the model (${url}) refused the proxy's credentials (HTTP ${status}: ${detail}); set MODEL_API_KEY to a key it accepts`,
    );
  }
  if (status === 404) {
    return new EdgegymError(502, "upstream_not_found", `configuration: the model (${url}) answered HTTP 404 (${detail}); check MODEL_BASE_URL and MODEL_NAME`);
  }
  if (status >= 400 && status < 500) return new EdgegymError(400, "upstream_rejected", `the model (${url}) rejected the request (HTTP ${status}): ${detail}`);
  return new EdgegymError(502, "upstream_error", `the model (${url}) failed (HTTP ${status}): ${detail}`);
}

/** The caller gave up: its signal aborted or its deadline passed. */
function callerGone(call: UpstreamCall<unknown>): boolean {
  return call.signal?.aborted === true || (call.deadlineAt !== undefined && Date.now() >= call.deadlineAt);
}

/** Time the caller has left, in ms (unbounded without a deadline). */
function timeLeft(call: UpstreamCall<unknown>): number {
  return call.deadlineAt === undefined ? Number.POSITIVE_INFINITY : call.deadlineAt - Date.now();
}

async function attempt<T>(config: ProxyConfig, base: string, call: UpstreamCall<T>): Promise<{ ok: T } | { contextLength: string } | { failure: Failure }> {
  // One timer per attempt, the caller's deadline folded in (an RPC call carries no signal: AbortSignal.any only for HTTP).
  // Cleared once the body is read: AbortSignal.timeout would stay armed for MODEL_TIMEOUT_MS after every model turn.
  const timeout = new AbortController();
  const timer = setTimeout(
    () => timeout.abort(new DOMException("The operation was aborted due to timeout", "TimeoutError")),
    Math.max(0, Math.min(config.timeoutMs, timeLeft(call))),
  );
  const signal = call.signal ? AbortSignal.any([call.signal, timeout.signal]) : timeout.signal;
  let response: Response;
  let text: string;
  try {
    const init: RequestInit = {
      method: call.method,
      headers: { "content-type": "application/json", ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}) },
      ...(call.body !== undefined ? { body: call.body } : {}),
      signal,
    };
    // A caller's own URL: checked (allow-list, resolved addresses) before every connection, redirects included.
    const url = upstreamUrl(base, call);
    response = config.outbound ? await outboundFetch(config.outbound, url, init, `the policy model (${upstreamName(config, base)})`) : await fetch(url, init);
    text = await response.text();
  } catch (error) {
    if (error instanceof EdgegymError) throw error;
    if (callerGone(call)) throw aborted();
    if (timeout.signal.aborted) return { failure: { kind: "connection", timeout: true, describe: `no answer within ${config.timeoutMs} ms` } };
    return {
      failure: { kind: "connection", describe: `connection failed: ${printable(redact(config, error instanceof Error ? error.message : String(error)))}` },
    };
  } finally {
    clearTimeout(timer);
  }
  if (response.ok) {
    try {
      return { ok: call.accept(JSON.parse(text)) };
    } catch (error) {
      const reason = error instanceof SyntaxError ? "not JSON" : error instanceof Error ? error.message : String(error);
      if (error instanceof SyntaxError || error instanceof MalformedBody) return { failure: { kind: "soft", describe: `malformed body (${reason})` } };
      throw error;
    }
  }
  const status = response.status;
  if (call.contextLengthIsAnswer && status === 400 && (text.includes("context length") || text.includes("max_tokens"))) {
    return { contextLength: errorMessage(config, text) };
  }
  if (!RETRY_STATUSES.has(status)) throw refusal(config, base, status, text);
  return {
    failure: {
      kind: CONNECTION_STATUSES.has(status) ? "connection" : "soft",
      describe: `HTTP ${status}: ${errorMessage(config, text)}`,
      retryAfterMs: retryAfter(response),
    },
  };
}

/**
 * Calls the pool: the session's upstream first; a connection-level failure moves to the next upstream at once, any
 * other retryable failure waits and tries the same one again; after `maxAttempts` a clear error names the upstream.
 */
export async function callUpstream<T>(config: ProxyConfig, call: UpstreamCall<T>): Promise<UpstreamResult<T>> {
  const order = call.pinned ? [call.pinned] : await candidates(config.upstreams, call.sessionId);
  const failedHere = new Set<string>();
  let previous: string | undefined;
  let sameRetries = 0;
  let last: { url: string; failure: Failure } | undefined;

  for (let n = 1; n <= config.maxAttempts; n++) {
    const url = pick(order, failedHere, n, !config.isolated);
    if (last) {
      // Another server needs no pause; the same one gets time to recover.
      if (url === previous) await sleep(Math.min(backoffMs(config, ++sameRetries, last.failure.retryAfterMs), timeLeft(call)), call.signal);
      else sameRetries = 0;
    }
    if (callerGone(call)) throw aborted();
    previous = url;
    const result = await attempt(config, url, call);
    if ("ok" in result) {
      if (!config.isolated) recordSuccess(url);
      return { kind: "ok", value: result.ok, upstream: url, attempts: n };
    }
    if ("contextLength" in result) return { kind: "context_length", message: result.contextLength, upstream: url, attempts: n };
    last = { url, failure: result.failure };
    call.log?.warn("model attempt failed", {
      upstream: upstreamName(config, url),
      attempt: n,
      of: config.maxAttempts,
      outcome: result.failure.timeout ? "timeout" : result.failure.kind,
      error: result.failure.describe,
    });
    if (result.failure.kind === "connection") {
      failedHere.add(url);
      if (!config.isolated) recordFailure(url, config.unhealthyMs);
    }
  }

  const { url, failure } = last!;
  const tried = failedHere.size > 1 ? ` (tried ${[...failedHere].map((u) => upstreamName(config, u)).join(", ")})` : "";
  const attempts = `${config.maxAttempts} attempt${config.maxAttempts === 1 ? "" : "s"}`;
  if (failure.timeout) {
    throw new EdgegymError(
      504,
      "upstream_timeout",
      `the model (${upstreamName(config, url)}) did not answer within ${config.timeoutMs} ms, ${attempts}${tried}`,
    );
  }
  throw new EdgegymError(502, "upstream_failed", `the model (${upstreamName(config, url)}) failed after ${attempts}${tried}; last: ${failure.describe}`);
}

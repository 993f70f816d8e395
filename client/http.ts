// The client's one way to call the gateway: bearer token, request id, and retries that honour Retry-After (429/503),
// bounded in number and spread with jitter so a crowd of refused callers does not come back all at once.
import type { ErrorEnvelope } from "../protocol/index.js";

export interface RetryOptions {
  /** Retries after the first attempt (default 10). */
  maxRetries?: number;
  /** The longest single wait, in ms (default 60 s, the gateway's longest Retry-After); a longer Retry-After ends the retries. */
  maxDelayMs?: number;
  /** The first backoff when there is no Retry-After to honour (a dropped connection), doubled per retry (default 500 ms). */
  baseDelayMs?: number;
}

export interface ConnectionOptions extends RetryOptions {
  /** The gateway's base URL, e.g. https://edgegym.example.workers.dev (no trailing /). */
  url: string;
  /** The bearer token (`Authorization: Bearer <token>`). */
  token?: string;
  /** A fetch to use instead of the global one (tests, proxies). */
  fetch?: typeof fetch;
}

/** An answer the gateway gave as an error envelope (or a transport failure, status 0), after any retries. */
export class EdgegymClientError extends Error {
  override name = "EdgegymClientError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId?: string,
    readonly issues?: ErrorEnvelope["error"]["issues"],
  ) {
    super(message);
  }
}

/**
 * Statuses worth another try: the gateway's "not now" answers, which come with Retry-After (429: this token's rate,
 * 503: the deployment's capacity). A 502/504 is the rollout's own failure (the model or an environment), not retried.
 */
const RETRYABLE = new Set([429, 503]);

/** Retry-After in ms: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * How long to wait before retry `retry` (1-based): never less than Retry-After, plus up to half of it again (jitter);
 * without one, exponential backoff with jitter. Undefined when Retry-After asks for longer than maxDelayMs.
 */
export function retryDelayMs(retry: number, retryAfter: number | undefined, options: RetryOptions): number | undefined {
  const max = options.maxDelayMs ?? 60_000;
  if (retryAfter !== undefined) {
    if (retryAfter > max) return undefined;
    return Math.min(max, retryAfter + Math.random() * Math.max(retryAfter, 200) * 0.5);
  }
  const exponential = Math.min(max, (options.baseDelayMs ?? 500) * 2 ** (retry - 1));
  return exponential / 2 + (Math.random() * exponential) / 2;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", abort, { once: true });
  });
}

async function errorFrom(response: Response): Promise<EdgegymClientError> {
  const text = await response.text().catch(() => "");
  const requestId = response.headers.get("x-request-id") ?? undefined;
  try {
    const body = JSON.parse(text) as Partial<ErrorEnvelope>;
    if (body.error && typeof body.error.code === "string") {
      return new EdgegymClientError(response.status, body.error.code, body.error.message, requestId, body.error.issues);
    }
  } catch {
    // Not an envelope: the status and the start of the text say what happened.
  }
  return new EdgegymClientError(response.status, `http_${response.status}`, text.slice(0, 500) || response.statusText, requestId);
}

export interface Call {
  method: string;
  path: string;
  body?: string;
  contentType?: string;
  signal?: AbortSignal;
}

/** A connection to one gateway: every call carries the token and is retried as RetryOptions say. */
export class Connection {
  private readonly fetch: typeof fetch;

  constructor(readonly options: ConnectionOptions) {
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  /** The answer to `call`, retried on 429/503 and dropped connections; an error answer throws EdgegymClientError. */
  async send(call: Call): Promise<Response> {
    const maxRetries = this.options.maxRetries ?? 10;
    const headers: Record<string, string> = {
      ...(this.options.token ? { authorization: `Bearer ${this.options.token}` } : {}),
      ...(call.contentType ? { "content-type": call.contentType } : {}),
    };
    for (let retry = 0; ; retry++) {
      let response: Response | undefined;
      let failure: unknown;
      try {
        response = await this.fetch(`${this.options.url}${call.path}`, { method: call.method, headers, body: call.body, signal: call.signal });
      } catch (error) {
        if (call.signal?.aborted) throw error;
        failure = error;
      }
      if (response?.ok) return response;
      const retryable = response === undefined || RETRYABLE.has(response.status);
      const wait = retryable ? retryDelayMs(retry + 1, response ? retryAfterMs(response.headers.get("retry-after")) : undefined, this.options) : undefined;
      if (wait === undefined || retry >= maxRetries) {
        if (response) throw await errorFrom(response);
        const reason = failure instanceof Error ? failure.message : String(failure);
        throw new EdgegymClientError(0, "unreachable", `${call.method} ${call.path}: ${reason}`);
      }
      // Read, not cancelled: a body left unread costs the connection (the next call would open a new one).
      await response?.arrayBuffer().catch(() => undefined);
      await sleep(wait, call.signal);
    }
  }

  async json<T>(call: Call): Promise<T> {
    return (await (await this.send(call)).json()) as T;
  }
}

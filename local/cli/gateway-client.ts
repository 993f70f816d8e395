// Talking to an edgegym gateway from Node: /run with bounded retries, environments, aggregate metrics.
import { setTimeout as sleep } from "node:timers/promises";
import { ErrorEnvelope } from "../../protocol/index.js";

export interface RunFailure {
  failure_class: string;
  message: string;
  status?: number;
  attempts: number;
}

const RETRYABLE = new Set([429, 502, 503, 504]);

export class GatewayClient {
  constructor(
    readonly url: string,
    private readonly token?: string,
    private readonly retries = 3,
  ) {}

  private headers(): Record<string, string> {
    return { "content-type": "application/json", ...(this.token ? { authorization: `Bearer ${this.token}` } : {}) };
  }

  async json<T>(path: string, init: RequestInit = {}): Promise<T> {
    const response = await fetch(`${this.url}${path}`, { ...init, headers: this.headers() });
    const text = await response.text();
    if (!response.ok) throw new Error(`${init.method ?? "GET"} ${path} answered ${response.status}: ${describe(text)}`);
    return JSON.parse(text) as T;
  }

  async environments(): Promise<string[]> {
    const list = await this.json<{ data: { name: string }[] }>("/v1/environments");
    return list.data.map((env) => env.name);
  }

  /** One rollout through /run; transient failures are retried with backoff, up to a fixed budget. */
  async run(row: unknown, environment: string | undefined, signal?: AbortSignal): Promise<Record<string, unknown> | RunFailure> {
    const query = environment ? `?environment=${encodeURIComponent(environment)}` : "";
    let last: RunFailure = { failure_class: "unknown", message: "not attempted", attempts: 0 };
    for (let attempt = 1; attempt <= this.retries; attempt++) {
      try {
        const response = await fetch(`${this.url}/run${query}`, {
          method: "POST",
          headers: this.headers(),
          body: JSON.stringify(row),
          signal,
        });
        const text = await response.text();
        if (response.ok) return JSON.parse(text) as Record<string, unknown>;
        const envelope = ErrorEnvelope.safeParse(safeJson(text));
        last = {
          failure_class: envelope.success ? envelope.data.error.code : `http_${response.status}`,
          message: envelope.success ? envelope.data.error.message : text.slice(0, 2000),
          status: response.status,
          attempts: attempt,
        };
        if (!RETRYABLE.has(response.status)) return last;
      } catch (error) {
        if (signal?.aborted) return { failure_class: "cancelled", message: "collection was interrupted", attempts: attempt };
        last = { failure_class: "gateway_unreachable", message: error instanceof Error ? error.message : String(error), attempts: attempt };
      }
      if (attempt < this.retries) await sleep(500 * 2 ** (attempt - 1) * (0.5 + Math.random()));
    }
    return last;
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function describe(text: string): string {
  const envelope = ErrorEnvelope.safeParse(safeJson(text));
  return envelope.success ? envelope.data.error.message : text.slice(0, 500);
}

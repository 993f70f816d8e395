// Talking to an edgegym gateway from Node: /run with bounded retries, environments, aggregate metrics.
import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { retryAfterMs } from "../../client/http.js";
import { escapeControl } from "../../http/log.js";
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

  authHeaders(): Record<string, string> {
    return this.token ? { authorization: `Bearer ${this.token}` } : {};
  }

  private headers(): Record<string, string> {
    return { "content-type": "application/json", ...this.authHeaders() };
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
  async run(row: unknown, environment: string | undefined, signal?: AbortSignal, toolNames?: "plain" | "mcp"): Promise<Record<string, unknown> | RunFailure> {
    // Failures as error statuses (retried below, reported with their code); the rows carry _ng_rollout_index, which alone would ask for records.
    const query = `?${new URLSearchParams({ failures: "error", ...(environment ? { environment } : {}), ...(toolNames ? { tool_names: toolNames } : {}) })}`;
    let last: RunFailure = { failure_class: "unknown", message: "not attempted", attempts: 0 };
    let retryAfter: number | undefined;
    for (let attempt = 1; attempt <= this.retries; attempt++) {
      retryAfter = undefined;
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
        // The gateway's 429/503 say when to come back: never sooner.
        retryAfter = retryAfterMs(response.headers.get("retry-after"));
      } catch (error) {
        if (signal?.aborted) return { failure_class: "cancelled", message: "collection was interrupted", attempts: attempt };
        last = { failure_class: "gateway_unreachable", message: error instanceof Error ? error.message : String(error), attempts: attempt };
      }
      if (attempt < this.retries) await sleep(Math.max(retryAfter ?? 0, 500 * 2 ** (attempt - 1) * (0.5 + Math.random())));
    }
    return last;
  }
}

export interface JobOptionsInput {
  environment?: string;
  num_repeats?: number;
  limit?: number;
  skip_invalid?: boolean;
  /** Shallow-merged into each row's responses_create_params by the gateway. */
  responses_create_params?: Record<string, unknown>;
  /** `mcp`: the model sees the environment's tools by their MCP names (`mcp__<environment>__<tool>`). */
  tool_names?: "plain" | "mcp";
}

export interface JobSnapshot {
  id: string;
  status: "running" | "completed" | "cancelled";
  /** The token name (tenant) that created the job, when one was recorded. */
  owner?: string;
  environment?: string;
  /** Rollouts per task the job was asked for (older gateways may not say). */
  num_repeats?: number;
  counts: { total: number; queued: number; running: number; done: number; failed: number; failed_by_class?: Record<string, number> };
  progress: number;
  /** Present while the job is stalled (nothing recorded for its stall time). */
  stalled?: { since: number; heals: number; max_heals: number };
  elapsed_seconds: number;
  created_at: number;
  skipped_lines?: { line: number; field: string; message: string }[];
  metrics?: Record<string, { agent_metrics: Record<string, unknown>; key_metrics: Record<string, unknown>; group_level_metrics: Record<string, unknown>[] }>;
}

export interface GatewayError extends Error {
  status?: number;
  envelope?: { code: string; message: string; issues?: { line?: number; path: (string | number)[]; message: string }[] };
}

/** The jobs API of a gateway. */
export class JobsClient {
  constructor(private readonly gateway: GatewayClient) {}

  /** Uploads a JSONL file as the job's rows, streamed: a large file never sits in memory. */
  async create(file: string, options: JobOptionsInput): Promise<JobSnapshot> {
    const query = new URLSearchParams(
      Object.entries(options)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]): [string, string] => [k, typeof v === "object" ? JSON.stringify(v) : String(v)]),
    );
    const body = Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>;
    const response = await fetch(`${this.gateway.url}/v1/jobs?${query}`, {
      method: "POST",
      headers: { ...this.gateway.authHeaders(), "content-type": "application/x-ndjson" },
      body,
      duplex: "half",
    } as RequestInit);
    const text = await response.text();
    if (response.ok) return JSON.parse(text) as JobSnapshot;
    const envelope = ErrorEnvelope.safeParse(safeJson(text));
    const error: GatewayError = new Error(envelope.success ? describe(text) : `POST /v1/jobs answered ${response.status}: ${describe(text)}`);
    error.status = response.status;
    if (envelope.success) error.envelope = envelope.data.error;
    throw error;
  }

  get(id: string): Promise<JobSnapshot> {
    return this.gateway.json<JobSnapshot>(`/v1/jobs/${encodeURIComponent(id)}`);
  }

  list(): Promise<{ data: JobSnapshot[] }> {
    return this.gateway.json(`/v1/jobs`);
  }

  cancel(id: string): Promise<JobSnapshot> {
    return this.gateway.json<JobSnapshot>(`/v1/jobs/${encodeURIComponent(id)}`, { method: "DELETE" });
  }

  /** Re-enqueues what has no scored rollout (failures run again), or with onlyMissing what has no record at all. */
  resume(id: string, onlyMissing = false): Promise<JobSnapshot & { resumed: number }> {
    return this.gateway.json(`/v1/jobs/${encodeURIComponent(id)}/resume${onlyMissing ? "?only_missing=true" : ""}`, { method: "POST" });
  }

  /**
   * The job's scored JSONL (or failures), as a stream to write where the user wants it: in task-then-repeat order as it
   * stands, or with `follow` each line as it lands (in the order recorded) until the job ends.
   */
  async lines(id: string, kind: "rollouts" | "failures", options: { follow?: boolean; signal?: AbortSignal } = {}): Promise<ReadableStream<Uint8Array>> {
    const query = options.follow ? "?follow=true" : "";
    const response = await fetch(`${this.gateway.url}/v1/jobs/${encodeURIComponent(id)}/${kind}${query}`, {
      headers: this.gateway.authHeaders(),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (!response.ok || !response.body) throw new Error(`GET /v1/jobs/${id}/${kind} answered ${response.status}: ${describe(await response.text())}`);
    return response.body;
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // An answer that is not JSON (a proxy's HTML page) has no error envelope: the caller reports the status and text.
    return undefined;
  }
}

/** What a gateway's error says, on one line: its control characters escaped (it may quote an upstream, or a row). */
function describe(text: string): string {
  const envelope = ErrorEnvelope.safeParse(safeJson(text));
  return escapeControl(envelope.success ? envelope.data.error.message : text.slice(0, 500));
}

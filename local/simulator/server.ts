// The vLLM simulator: an OpenAI-compatible HTTP server with a deterministic policy, a real tokenizer and a reply script.
import { setMaxListeners } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { badRequest, handleChat, parseJson, zodProblem, type ChatState, type GenerationRecord, type HttpResult } from "./chat.js";
import { errorBody, type ReasoningField } from "./completion.js";
import { faultSampler, type FaultOptions, spikeSampler } from "./faults.js";
import { latencySampler, type LatencySpec } from "./latency.js";
import { scriptBodySchema, scriptedReplySchema, type ChatCompletionRequest, type ScriptedReplyInput } from "./schema.js";
import { handleDetokenize, handleTokenize } from "./tokenize.js";

export interface SimulatorLogger {
  info(message: string): void;
  warn(message: string): void;
}

/** The default: library code stays quiet unless the caller passes a logger. */
export const silentLogger: SimulatorLogger = { info: () => {}, warn: () => {} };

export interface SimulatorOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Served model id (default "edgegym-sim"). */
  model?: string;
  /** Delay before each answer (default 0); a range is sampled uniformly from `seed`. */
  latencyMs?: LatencySpec;
  /** Seed for sampled latencies (default 1). */
  seed?: number;
  /** Context window reported by /v1/models and enforced on requests (default 32768). */
  maxModelLen?: number;
  /** Errors, dropped connections and garbled bodies on a share of chat completions (none by default). */
  faults?: FaultOptions;
  /** A reasoning model: think before every answer unless told not to. Otherwise only when asked (default false). */
  reasoning?: boolean;
  /** The message field reasoning comes back in (default "reasoning_content", as vLLM before 0.16). */
  reasoningField?: ReasoningField;
  /** Answer `return_token_ids` with prompt and generation ids (default true); false acts as an older vLLM. */
  supportsReturnTokenIds?: boolean;
  /** Like `vllm serve --api-key`: /v1 routes answer 401 without `Authorization: Bearer <key>`. */
  apiKey?: string;
  log?: SimulatorLogger;
}

/** What may change while the simulator runs. */
export type SimulatorSettings = Pick<SimulatorOptions, "latencyMs" | "faults" | "reasoning" | "reasoningField" | "supportsReturnTokenIds">;

export interface Simulator {
  /** Base URL without a trailing slash, e.g. http://127.0.0.1:8000 (the API is under /v1). */
  readonly url: string;
  readonly port: number;
  readonly model: string;
  /** Chat completion requests received (valid ones), oldest first. */
  readonly requests: readonly ChatCompletionRequest[];
  /** Every generation, oldest first: its prompt token ids, generated token ids and logprobs. */
  readonly generations: readonly GenerationRecord[];
  /** Faults injected since start (or the last reset), by kind. */
  readonly injected: Readonly<ChatState["injected"]>;
  /** Chat completions received and not yet answered (vLLM's num_requests_running), and the most there have been at once. */
  readonly load: { running: number; peak: number; answered: number };
  /** Appends replies to the script; each chat completion consumes the oldest one. */
  script(...replies: ScriptedReplyInput[]): void;
  /** Changes latency, faults or reasoning from now on (the sequences restart from the seed). */
  configure(settings: SimulatorSettings): void;
  /** Clears the script and the recorded requests, and restarts the latency and fault sequences. */
  reset(): void;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 64 * 1024 * 1024;

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on("end", () => resolve(size > MAX_BODY_BYTES ? null : Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function send(res: ServerResponse, result: HttpResult): void {
  if (res.destroyed) return;
  if ("drop" in result) {
    res.socket?.destroy();
    return;
  }
  if ("text" in result) {
    res.writeHead(result.status, { "content-type": "text/plain; version=0.0.4", "content-length": Buffer.byteLength(result.text) });
    res.end(result.text);
    return;
  }
  if ("malformed" in result) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(result.malformed);
    return;
  }
  if ("stream" in result) {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    for (const chunk of result.stream) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    res.end("data: [DONE]\n\n");
    return;
  }
  const body = JSON.stringify(result.json);
  res.writeHead(result.status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  res.end(body);
}

const ROUTES = ["/health", "/metrics", "/v1/models", "/v1/chat/completions", "/tokenize", "/detokenize", "/simulator/script", "/simulator/requests"];

/** vLLM's Prometheus gauges the simulator keeps (a load test reads how many requests the model holds at once). */
function metricsText(model: string, load: { running: number; peak: number; answered: number }): string {
  const label = `{model_name=${JSON.stringify(model)}}`;
  return [
    "# HELP vllm:num_requests_running Number of requests in model execution batches.",
    "# TYPE vllm:num_requests_running gauge",
    `vllm:num_requests_running${label} ${load.running}`,
    "# HELP vllm:num_requests_waiting Number of requests waiting to be processed.",
    "# TYPE vllm:num_requests_waiting gauge",
    `vllm:num_requests_waiting${label} 0`,
    "# HELP edgegym_simulator:num_requests_running_peak The most chat completions held at once since the simulator started.",
    "# TYPE edgegym_simulator:num_requests_running_peak gauge",
    `edgegym_simulator:num_requests_running_peak${label} ${load.peak}`,
    "# HELP edgegym_simulator:requests_answered_total Chat completions answered.",
    "# TYPE edgegym_simulator:requests_answered_total counter",
    `edgegym_simulator:requests_answered_total${label} ${load.answered}`,
    "",
  ].join("\n");
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const model = options.model ?? "edgegym-sim";
  const maxModelLen = options.maxModelLen ?? 32768;
  const log = options.log ?? silentLogger;
  let latency = options.latencyMs ?? 0;
  let faults = options.faults;
  const seed = options.seed ?? 1;
  const created = Math.floor(Date.now() / 1000);
  const closing = new AbortController();
  // Every request waiting out its latency listens for the close: thousands at once under load is intended, not a leak.
  setMaxListeners(0, closing.signal);
  const state: ChatState = {
    model,
    maxModelLen,
    script: [],
    requests: [],
    generations: [],
    nextLatency: latencySampler(latency, seed),
    nextFault: faultSampler(faults, seed),
    nextSpike: spikeSampler(faults, seed),
    injected: { error: 0, drop: 0, malformed: 0, hang: 0, spike: 0 },
    reasoning: options.reasoning ?? false,
    reasoningField: options.reasoningField ?? "reasoning_content",
    supportsReturnTokenIds: options.supportsReturnTokenIds ?? true,
    signal: closing.signal,
  };

  const load = { running: 0, peak: 0, answered: 0 };

  async function route(method: string, path: string, req: IncomingMessage): Promise<HttpResult> {
    const key = `${method} ${path}`;
    if (options.apiKey && path.startsWith("/v1/") && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      return { status: 401, json: errorBody(401, "Unauthorized") };
    }
    if (key === "GET /health") return { status: 200, json: { status: "ok" } };
    if (key === "GET /metrics") return { status: 200, text: metricsText(model, load) };
    if (key === "GET /v1/models") {
      const card = { id: model, object: "model", created, owned_by: "edgegym-simulator", max_model_len: maxModelLen };
      return { status: 200, json: { object: "list", data: [card] } };
    }
    if (key === "GET /simulator/requests") return { status: 200, json: { requests: state.requests } };
    if (key === "DELETE /simulator/script") {
      const cleared = state.script.splice(0).length;
      return { status: 200, json: { cleared } };
    }
    if (!ROUTES.includes(path)) return { status: 404, json: errorBody(404, `Not Found: ${method} ${path}`) };
    if (method !== "POST" || path === "/health" || path === "/metrics" || path === "/v1/models" || path === "/simulator/requests") {
      return { status: 405, json: errorBody(405, `Method Not Allowed: ${method} ${path}`) };
    }

    const body = await readBody(req);
    if (body === null) return { status: 413, json: errorBody(413, "Request body too large") };
    if (path === "/v1/chat/completions") {
      load.running++;
      load.peak = Math.max(load.peak, load.running);
      try {
        return await handleChat(body, state);
      } finally {
        load.running--;
        load.answered++;
      }
    }
    if (path === "/tokenize") return handleTokenize(body, maxModelLen);
    if (path === "/detokenize") return handleDetokenize(body);

    const json = parseJson(body);
    if (!json.ok) return badRequest("Invalid JSON in request body");
    const parsed = scriptBodySchema.safeParse(json.value);
    if (!parsed.success) return zodProblem(parsed.error);
    state.script.push(...parsed.data.replies);
    return { status: 200, json: { queued: parsed.data.replies.length, pending: state.script.length } };
  }

  const server = createServer((req, res) => {
    const method = req.method ?? "GET";
    const path = new URL(req.url ?? "/", "http://simulator").pathname.replace(/\/+$/, "") || "/";
    const started = Date.now();
    route(method, path, req)
      .catch((error: unknown) => {
        log.warn(`simulator: ${method} ${path} failed: ${String(error)}`);
        return { status: 500, json: errorBody(500, "Internal simulator error") } satisfies HttpResult;
      })
      .then((result) => {
        send(res, result);
        log.info(`${method} ${path} ${"drop" in result ? "dropped" : result.status} ${Date.now() - started}ms`);
      });
  });

  // An idle keep-alive connection is kept longer than a client pool keeps one (Node's 5 s default is shorter than
  // workerd's): otherwise, after a lull, the model proxy reuses a socket the simulator is closing ("Network connection
  // lost"), as happened when 2,000 refused /run calls came back spread over their Retry-After.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  // Tracked so close() can drop keep-alive connections instead of waiting for clients.
  const sockets = new Set<Socket>();
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  let closed: Promise<void> | undefined;

  return {
    url,
    port: address.port,
    model,
    get requests() {
      return [...state.requests];
    },
    get generations() {
      return [...state.generations];
    },
    get injected() {
      return { ...state.injected };
    },
    get load() {
      return { ...load };
    },
    script(...replies) {
      state.script.push(...replies.map((reply) => scriptedReplySchema.parse(reply)));
    },
    configure(settings) {
      if (settings.latencyMs !== undefined) latency = settings.latencyMs;
      if (settings.faults !== undefined) faults = settings.faults;
      if (settings.reasoning !== undefined) state.reasoning = settings.reasoning;
      if (settings.reasoningField !== undefined) state.reasoningField = settings.reasoningField;
      if (settings.supportsReturnTokenIds !== undefined) state.supportsReturnTokenIds = settings.supportsReturnTokenIds;
      state.nextLatency = latencySampler(latency, seed);
      state.nextFault = faultSampler(faults, seed);
      state.nextSpike = spikeSampler(faults, seed);
    },
    reset() {
      state.script.length = 0;
      state.requests.length = 0;
      state.generations.length = 0;
      for (const kind of Object.keys(state.injected) as (keyof ChatState["injected"])[]) state.injected[kind] = 0;
      state.nextLatency = latencySampler(latency, seed);
      state.nextFault = faultSampler(faults, seed);
      state.nextSpike = spikeSampler(faults, seed);
    },
    close() {
      closed ??= new Promise<void>((resolve) => {
        closing.abort();
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
      });
      return closed;
    },
  };
}

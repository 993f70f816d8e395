// The agent's ports around in-memory stand-ins (a simple environment, a scripted model, recording queues, a counting
// bucket, Job objects), to drive the agent's logic and its queue consumer in plain Node.
import { AgentVars } from "../../contracts/config.js";
import type { JobRpc } from "../../contracts/jobs.js";
import type { WorkMessage } from "../../contracts/messages.js";
import { QUEUES } from "../../contracts/names.js";
import type { EnvironmentDescription, EnvironmentRpc, ModelRpc } from "../../contracts/rpc.js";
import type { AgentPorts } from "../../functions/agent/ports.js";
import type { Response as ModelResponse } from "../../protocol/index.js";
import { CLOUDFLARE_LIMITS } from "../../queues/cloudflare.js";
import type { MessageQueue, OutgoingMessage, ReceivedBatch, ReceivedMessage } from "../../queues/queue.js";
import type { ObjectStore, StoredObject } from "../../storage/store.js";

const encoder = new TextEncoder();

/** A model turn's Response: one assistant message, or function calls, with usage (and its details) as given. */
export function modelResponse(
  output: { text: string } | { calls: { name: string; arguments: string }[] },
  usage: { input: number; output: number; cached?: number; reasoning?: number } = { input: 1, output: 1 },
): ModelResponse {
  const items =
    "text" in output
      ? [
          {
            id: "msg",
            type: "message" as const,
            role: "assistant" as const,
            status: "completed",
            content: [{ type: "output_text" as const, text: output.text, annotations: [] }],
          },
        ]
      : output.calls.map((call, i) => ({ type: "function_call" as const, call_id: `call_${i}`, name: call.name, arguments: call.arguments }));
  return {
    id: "resp",
    object: "response",
    created_at: 0,
    model: "m",
    output: items,
    parallel_tool_calls: true,
    tool_choice: "auto",
    tools: [],
    usage: {
      input_tokens: usage.input,
      input_tokens_details: { cached_tokens: usage.cached ?? 0 },
      output_tokens: usage.output,
      output_tokens_details: { reasoning_tokens: usage.reasoning ?? 0 },
      total_tokens: usage.input + usage.output,
    },
  };
}

/** A model that answers each call with the next scripted Response, and keeps the params it was called with. */
export function scriptedModel(replies: ModelResponse[] | (() => ModelResponse)): ModelRpc & { calls: unknown[] } {
  const calls: unknown[] = [];
  return {
    calls,
    async respond(params) {
      calls.push(params);
      const next = typeof replies === "function" ? replies() : replies.shift();
      if (!next) throw new Error("the scripted model has no reply left");
      return { ok: true, value: next };
    },
  };
}

/** NeMo Gym's simple resources server: every tool answers, verify gives `reward` (default 1). */
export function simpleEnvironment(name: string, reward = 1): EnvironmentRpc & { verified: unknown[] } {
  const description: EnvironmentDescription = { kind: "simple", name, description: "", stateful: false, tools: [] };
  const verified: unknown[] = [];
  const unused = async (): Promise<never> => {
    throw new Error("not a gymnasium environment");
  };
  return {
    verified,
    describe: async () => description,
    seed: async () => ({ sessionId: "session-1", status: 200, body: {} }),
    tool: async (_session, tool, args) => ({ status: 200, body: { tool, args } }),
    verify: async (_session, request) => {
      verified.push(request);
      return { status: 200, body: { reward } };
    },
    reset: unused,
    step: unused,
    close: unused,
    aggregateMetrics: async () => ({ ok: false, error: { status: 501, code: "unused", message: "not in these tests" } }),
  };
}

/** A queue that keeps what is sent to it, with Cloudflare's limits. */
export function recordingQueue<T>(): MessageQueue<T> & { sent: T[] } {
  const sent: T[] = [];
  return {
    sent,
    limits: CLOUDFLARE_LIMITS,
    async send(body) {
      sent.push(body);
    },
    async sendBatch(messages: OutgoingMessage<T>[]) {
      for (const message of messages) sent.push(message.body);
    },
  };
}

/** An in-memory bucket that counts reads per key. */
export function countingStore(objects: Record<string, string> = {}): ObjectStore & { objects: Map<string, string>; gets: Map<string, number> } {
  const stored = new Map(Object.entries(objects));
  const gets = new Map<string, number>();
  return {
    objects: stored,
    gets,
    async put(key, body, options) {
      if (options?.onlyIfAbsent && stored.has(key)) return false;
      stored.set(key, typeof body === "string" ? body : await new Response(body).text());
      return true;
    },
    async get(key): Promise<StoredObject | null> {
      gets.set(key, (gets.get(key) ?? 0) + 1);
      const text = stored.get(key);
      if (text === undefined) return null;
      const bytes = encoder.encode(text);
      return {
        key,
        size: bytes.byteLength,
        body: new Response(bytes).body!,
        text: async () => text,
        json: async <T>() => JSON.parse(text) as T,
        bytes: async () => bytes,
      };
    },
    async list(options) {
      return { keys: [...stored.keys()].filter((key) => key.startsWith(options.prefix)).sort(), prefixes: [] };
    },
    async delete(keys) {
      for (const key of typeof keys === "string" ? [keys] : keys) stored.delete(key);
    },
  };
}

/** A delivered message whose outcome the test reads: acked, retried, or neither yet. */
export function receivedMessage<T>(body: T, attempts = 1): ReceivedMessage<T> & { outcome: "pending" | "acked" | "retried" } {
  const message = {
    id: crypto.randomUUID(),
    body,
    attempts,
    outcome: "pending" as "pending" | "acked" | "retried",
    ack() {
      message.outcome = "acked";
    },
    retry() {
      message.outcome = "retried";
    },
  };
  return message;
}

export function batchOf(messages: ReceivedMessage<WorkMessage>[], queue: string = QUEUES.rollouts): ReceivedBatch {
  return { queue, messages };
}

export interface FakePorts extends AgentPorts {
  rollouts: ReturnType<typeof recordingQueue<WorkMessage>>;
  results: ReturnType<typeof recordingQueue<string>>;
  store: ReturnType<typeof countingStore>;
}

/** The agent's ports: the given environments and model; Job objects answer `started` as `job` says (default: one repeat). */
export function fakePorts(options: {
  environments: Record<string, EnvironmentRpc>;
  model: ModelRpc;
  store?: ReturnType<typeof countingStore>;
  /** A job's answers; `wanted` defaults to what `started` answers (these fakes count nothing). */
  job?: (id: string) => Pick<JobRpc, "started"> & Partial<Pick<JobRpc, "wanted">>;
  vars?: Record<string, string>;
}): FakePorts {
  const names = Object.keys(options.environments);
  return {
    config: AgentVars.parse({ ENVIRONMENTS: names.join(","), RETRY_BASE_SECONDS: "0", ...options.vars }),
    model: options.model,
    environment: (name) => options.environments[name],
    environments: names,
    rollouts: recordingQueue<WorkMessage>(),
    results: recordingQueue<string>(),
    store: options.store ?? countingStore(),
    // A dead-lettered expand message asks the job to abandon its chunk: these tests have none, so nothing is written.
    job: (id) => {
      const job = options.job?.(id) ?? { started: async () => ({ numRepeats: 1 }) };
      // Asking whether the job is wanted reads what started() would answer, without counting anything.
      return { abandon: async () => ({ written: 0 }), wanted: () => job.started(0), ...job };
    },
  };
}

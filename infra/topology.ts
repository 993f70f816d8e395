// The one description of edgegym's Workers and their bindings; local emulation (and deployment) are built from it.
import type { WorkerKind } from "../contracts/config.js";
import {
  ADMISSION_CLASS,
  ENTRYPOINTS,
  JOB_CLASS,
  QUEUES,
  RATE_LIMITER_CLASS,
  RUNNER_CLASS,
  SESSION_CLASS,
  WORKERS,
  environmentBinding,
  environmentWorkerName,
} from "../contracts/names.js";

export { SESSION_CLASS };
export const COMPATIBILITY_DATE = "2026-04-01";

/** A service binding's target: a Worker, and the named RPC entrypoint it exports (its default handler otherwise). */
export interface ServiceTarget {
  worker: string;
  entrypoint?: string;
}

export interface WorkerSpec {
  name: string;
  /** Which of edgegym's Workers this is: decides its variables' schema (contracts/config.ts) and binding types. */
  kind: WorkerKind;
  /** Source entry, relative to the project root. */
  entry: string;
  /** For an environment Worker: its name (its entry is generated from `environments/<name>/index.ts`). */
  environment?: string;
  services: Record<string, ServiceTarget>;
  vars: Record<string, string>;
  /** Binding → Durable Object class (SQLite-backed); `scriptName` when another Worker hosts the class. */
  durableObjects: Record<string, { className: string; scriptName?: string }>;
  /** Binding → queue name, for queues the Worker sends to. */
  queueProducers?: Record<string, string>;
  /** Queues the Worker consumes, with their delivery settings. */
  queueConsumers?: Record<string, QueueConsumer>;
  /** Binding → bucket name. */
  buckets?: Record<string, string>;
  /** Secrets the Worker reads; never written into configuration. */
  secrets: string[];
}

export interface QueueConsumer {
  maxBatchSize: number;
  /** Seconds to wait for a batch to fill. */
  maxBatchTimeout: number;
  maxRetries: number;
  deadLetterQueue?: string;
}

export const BUCKET_NAME = "edgegym-data";

/** Delivery settings; the agent keeps its own attempt budget (MAX_ATTEMPTS) below maxRetries, the DLQ is the safety net. */
export const CONSUMERS = {
  rollouts: { maxBatchSize: 100, maxBatchTimeout: 0.05, maxRetries: 5, deadLetterQueue: QUEUES.rolloutsDlq },
  rolloutsDlq: { maxBatchSize: 100, maxBatchTimeout: 0.5, maxRetries: 5 },
  results: { maxBatchSize: 100, maxBatchTimeout: 0.05, maxRetries: 10, deadLetterQueue: QUEUES.resultsDlq },
  // A result whose write kept failing: the writer records it as a dead_letter failure, so its job still completes.
  resultsDlq: { maxBatchSize: 100, maxBatchTimeout: 0.5, maxRetries: 5 },
} satisfies Record<string, QueueConsumer>;

export interface TopologyOptions {
  environments: string[];
  /** The policy model's OpenAI-compatible base URL (ending in /v1) and model name. */
  modelBaseUrl: string;
  /** Several vLLM servers for the same model: the proxy spreads sessions over them (MODEL_BASE_URLS). */
  modelBaseUrls?: string[];
  modelName: string;
  /** The judge model for LLM-as-judge environments; the policy model unless given. */
  judgeBaseUrl?: string;
  judgeModelName?: string;
  vars?: Partial<Record<"agent" | "modelProxy" | "judgeProxy" | "gateway" | "writer" | "environment", Record<string, string>>>;
  /** The sandbox service environment Workers reach (SANDBOX_PROVIDER local unless `vars.environment` names another). */
  sandboxUrl?: string;
}

export function topology(options: TopologyOptions): WorkerSpec[] {
  const environmentServices = Object.fromEntries(
    options.environments.map((name): [string, ServiceTarget] => [
      environmentBinding(name),
      { worker: environmentWorkerName(name), entrypoint: ENTRYPOINTS.environment },
    ]),
  );
  const model = (worker: string): ServiceTarget => ({ worker, entrypoint: ENTRYPOINTS.model });
  const list = options.environments.join(",");
  return [
    // The gateway comes first: it is the entry every request reaches.
    {
      name: WORKERS.gateway,
      kind: "gateway",
      entry: "functions/gateway/index.ts",
      services: { AGENT: { worker: WORKERS.agent, entrypoint: ENTRYPOINTS.agent }, MODEL_PROXY: model(WORKERS.modelProxy), ...environmentServices },
      vars: { ENVIRONMENTS: list, ...options.vars?.gateway },
      durableObjects: {
        JOBS: { className: JOB_CLASS, scriptName: WORKERS.writer },
        RATE_LIMITS: { className: RATE_LIMITER_CLASS },
        ADMISSION: { className: ADMISSION_CLASS },
      },
      queueProducers: { ROLLOUTS: QUEUES.rollouts },
      buckets: { BUCKET: BUCKET_NAME },
      secrets: ["API_TOKENS", "TENANT_QUOTAS"],
    },
    {
      name: WORKERS.agent,
      kind: "agent",
      entry: "functions/agent/index.ts",
      services: { MODEL_PROXY: model(WORKERS.modelProxy), ...environmentServices },
      vars: { ENVIRONMENTS: list, ...options.vars?.agent },
      // RUNNERS: the rollout runners the consumer hands rollouts to (functions/agent/runner.ts).
      durableObjects: { JOBS: { className: JOB_CLASS, scriptName: WORKERS.writer }, RUNNERS: { className: RUNNER_CLASS } },
      queueProducers: { ROLLOUTS: QUEUES.rollouts, RESULTS: QUEUES.results },
      queueConsumers: { [QUEUES.rollouts]: CONSUMERS.rollouts, [QUEUES.rolloutsDlq]: CONSUMERS.rolloutsDlq },
      buckets: { BUCKET: BUCKET_NAME },
      secrets: [],
    },
    {
      name: WORKERS.modelProxy,
      kind: "modelProxy",
      entry: "functions/model-proxy/index.ts",
      services: {},
      vars: {
        MODEL_BASE_URL: options.modelBaseUrl,
        ...(options.modelBaseUrls && options.modelBaseUrls.length > 1 ? { MODEL_BASE_URLS: options.modelBaseUrls.join(",") } : {}),
        MODEL_NAME: options.modelName,
        // The gateway's allow-list for callers' policy URLs: the proxy checks them again before each connection.
        ...(options.vars?.gateway?.POLICY_URL_ALLOW ? { POLICY_URL_ALLOW: options.vars.gateway.POLICY_URL_ALLOW } : {}),
        ...options.vars?.modelProxy,
      },
      durableObjects: {},
      secrets: ["MODEL_API_KEY"],
    },
    // The judge is the same model proxy with its own model configuration: a judge can differ from the policy.
    {
      name: WORKERS.judgeProxy,
      kind: "judgeProxy",
      entry: "functions/model-proxy/index.ts",
      services: {},
      vars: {
        MODEL_BASE_URL: options.judgeBaseUrl ?? options.modelBaseUrl,
        MODEL_NAME: options.judgeModelName ?? options.modelName,
        ...options.vars?.judgeProxy,
      },
      durableObjects: {},
      secrets: ["MODEL_API_KEY"],
    },
    {
      name: WORKERS.writer,
      kind: "writer",
      entry: "functions/writer/index.ts",
      services: environmentServices,
      vars: { ENVIRONMENTS: list, ...options.vars?.writer },
      durableObjects: { JOBS: { className: JOB_CLASS } },
      // A stalled job's Job object re-enqueues what is missing itself.
      queueProducers: { ROLLOUTS: QUEUES.rollouts },
      queueConsumers: { [QUEUES.results]: CONSUMERS.results, [QUEUES.resultsDlq]: CONSUMERS.resultsDlq },
      buckets: { BUCKET: BUCKET_NAME },
      secrets: [],
    },
    ...options.environments.map(
      (name): WorkerSpec => ({
        name: environmentWorkerName(name),
        kind: "environment",
        entry: `environments/${name}/index.ts`,
        environment: name,
        services: { JUDGE: model(WORKERS.judgeProxy) },
        vars: { ...(options.sandboxUrl ? { SANDBOX_PROVIDER: "local", SANDBOX_URL: options.sandboxUrl } : {}), ...options.vars?.environment },
        // Every environment Worker hosts its session class, so an environment may become stateful without a new binding.
        durableObjects: { SESSIONS: { className: SESSION_CLASS } },
        // The key session ids are signed with: one for every environment of the deployment.
        secrets: ["SESSION_SECRET"],
      }),
    ),
  ];
}

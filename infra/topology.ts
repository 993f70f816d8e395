// The one description of edgegym's Workers and their bindings; local emulation (and deployment) are built from it.
import { WORKERS, environmentBinding, environmentWorkerName } from "../functions/bindings.js";

export const COMPATIBILITY_DATE = "2026-04-01";
export const SESSION_CLASS = "EnvironmentSession";

export interface WorkerSpec {
  name: string;
  /** Source entry, relative to the project root. */
  entry: string;
  /** For an environment Worker: its name (its entry is generated from `environments/<name>/index.ts`). */
  environment?: string;
  services: Record<string, string>;
  vars: Record<string, string>;
  /** Binding → class, for Durable Objects the Worker hosts itself. */
  durableObjects: Record<string, string>;
  /** Secrets the Worker reads; never written into configuration. */
  secrets: string[];
}

export interface TopologyOptions {
  environments: string[];
  /** The policy model's OpenAI-compatible base URL (ending in /v1) and model name. */
  modelBaseUrl: string;
  modelName: string;
  vars?: Partial<Record<"agent" | "modelProxy" | "gateway", Record<string, string>>>;
}

export function topology(options: TopologyOptions): WorkerSpec[] {
  const environmentServices = Object.fromEntries(
    options.environments.map((name) => [environmentBinding(name), environmentWorkerName(name)]),
  );
  const list = options.environments.join(",");
  return [
    // The gateway comes first: it is the entry every request reaches.
    {
      name: WORKERS.gateway,
      entry: "functions/gateway/index.ts",
      services: { AGENT: WORKERS.agent, MODEL_PROXY: WORKERS.modelProxy, ...environmentServices },
      vars: { ENVIRONMENTS: list, ...options.vars?.gateway },
      durableObjects: {},
      secrets: ["API_TOKENS"],
    },
    {
      name: WORKERS.agent,
      entry: "functions/agent/index.ts",
      services: { MODEL_PROXY: WORKERS.modelProxy, ...environmentServices },
      vars: { ENVIRONMENTS: list, ...options.vars?.agent },
      durableObjects: {},
      secrets: [],
    },
    {
      name: WORKERS.modelProxy,
      entry: "functions/model-proxy/index.ts",
      services: {},
      vars: { MODEL_BASE_URL: options.modelBaseUrl, MODEL_NAME: options.modelName, ...options.vars?.modelProxy },
      durableObjects: {},
      secrets: ["MODEL_API_KEY"],
    },
    ...options.environments.map(
      (name): WorkerSpec => ({
        name: environmentWorkerName(name),
        entry: `environments/${name}/index.ts`,
        environment: name,
        services: {},
        vars: {},
        // Every environment Worker hosts its session class, so an environment may become stateful without a new binding.
        durableObjects: { SESSIONS: SESSION_CLASS },
        secrets: [],
      }),
    ),
  ];
}

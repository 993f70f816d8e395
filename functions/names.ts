// Names of Workers, bindings, queues and classes: plain constants, shared by the Workers, infra/ and local emulation.

/** Service binding name under which the gateway and agent reach an environment's Worker. */
export function environmentBinding(name: string): `ENV_${string}` {
  return `ENV_${name.toUpperCase()}`;
}

/** Worker script name of an environment's resources server. */
export function environmentWorkerName(name: string): string {
  return `resources-${name.replace(/_/g, "-")}`;
}

export const WORKERS = { gateway: "gateway", agent: "agent", modelProxy: "model-proxy", judgeProxy: "judge-proxy", writer: "writer" } as const;

/** Queue names: work flows on `rollouts`, scored rollouts and failures on `results`. */
export const QUEUES = {
  rollouts: "edgegym-rollouts",
  results: "edgegym-results",
  rolloutsDlq: "edgegym-rollouts-dlq",
  resultsDlq: "edgegym-results-dlq",
} as const;

/** The Job Durable Object class, hosted by the writer. */
export const JOB_CLASS = "Job";

export function environmentNames(list: string): string[] {
  return list
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
}

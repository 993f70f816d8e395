// The Workers: one per topology entry (gateway, agent, model and judge proxies, writer, one per environment), bound as the topology says.
import { WORKERS } from "../contracts/names.js";
import { writeEnvironmentEntry } from "./environments.js";
import { queueName, type QueueSet } from "./queues.js";
import { secretValues, type Secrets } from "./secrets.js";
import { COMPATIBILITY_DATE, type WorkerSpec } from "./topology.js";

type Binding = Record<string, $util.Input<string>> & { type: string; name: string };

/** Workers that others bind to come first, so every binding can name a script that exists. */
export function dependencyOrder(specs: WorkerSpec[]): WorkerSpec[] {
  const byName = new Map(specs.map((spec) => [spec.name, spec]));
  const needs = (spec: WorkerSpec) => [
    ...Object.values(spec.services).map((target) => target.worker),
    ...Object.values(spec.durableObjects).flatMap((target) => (target.scriptName && !target.external ? [target.scriptName] : [])),
  ];
  const ordered: WorkerSpec[] = [];
  const seen = new Set<string>();
  const visit = (spec: WorkerSpec, path: string[]) => {
    if (seen.has(spec.name)) return;
    if (path.includes(spec.name)) throw new Error(`Worker bindings form a cycle: ${[...path, spec.name].join(" → ")}`);
    for (const name of needs(spec)) {
      const target = byName.get(name);
      if (!target) throw new Error(`${spec.name} binds "${name}", which is not in the topology`);
      visit(target, [...path, spec.name]);
    }
    seen.add(spec.name);
    ordered.push(spec);
  };
  for (const spec of specs) visit(spec, []);
  return ordered;
}

/** Model settings are secrets when deployed (they are plain variables in local emulation). */
const DEPLOYED_AS_SECRETS = new Set(["MODEL_BASE_URL", "MODEL_NAME"]);

export interface Deployed {
  workers: Map<string, sst.cloudflare.Worker>;
  scripts: Map<string, $util.Output<string>>;
}

export function createWorkers(
  root: string,
  specs: WorkerSpec[],
  secrets: Secrets,
  queues: QueueSet,
  bucket: sst.cloudflare.Bucket,
  /** Secrets beyond the deployment's own, by the name a Worker reads (remote environments' auth, infra/remote.ts). */
  extraSecrets: Record<string, $util.Input<string>> = {},
): Deployed {
  const workers = new Map<string, sst.cloudflare.Worker>();
  const scripts = new Map<string, $util.Output<string>>();
  for (const spec of dependencyOrder(specs)) {
    const proxy = spec.name === WORKERS.modelProxy ? "model-proxy" : spec.name === WORKERS.judgeProxy ? "judge-proxy" : "other";
    const values = { ...secretValues(secrets, proxy), ...extraSecrets };
    const secretNames = proxy === "other" ? spec.secrets : [...new Set([...spec.secrets, "MODEL_BASE_URLS", "MODEL_NAME"])];
    const bindings: Binding[] = [
      ...Object.entries(spec.services).map(([name, target]) => ({
        type: "service",
        name,
        service: scripts.get(target.worker)!,
        ...(target.entrypoint ? { entrypoint: target.entrypoint } : {}),
      })),
      ...Object.entries(spec.durableObjects).map(([name, target]) => ({
        type: "durable_object_namespace",
        name,
        className: target.className,
        ...(target.scriptName ? { scriptName: target.external ? target.scriptName : scripts.get(target.scriptName)! } : {}),
      })),
      ...Object.entries(spec.queueProducers ?? {}).map(([name, queue]) => ({ type: "queue", name, queueName: queueName(queues, queue) })),
      ...Object.entries(spec.buckets ?? {}).map(([name]) => ({ type: "r2_bucket", name, bucketName: bucket.name })),
      ...secretNames.map((name) => {
        const text = values[name];
        if (text === undefined) throw new Error(`${spec.name} needs the secret ${name}, which infra/secrets.ts does not provide`);
        return { type: "secret_text", name, text };
      }),
    ];
    const ownClasses = Object.values(spec.durableObjects)
      .filter((target) => !target.scriptName)
      .map((target) => target.className);
    const environment = Object.fromEntries(Object.entries(spec.vars).filter(([name]) => !DEPLOYED_AS_SECRETS.has(name)));
    const worker = new sst.cloudflare.Worker(componentName(spec.name), {
      handler: spec.environment
        ? writeEnvironmentEntry(root, spec.environment, { cloudflareSandbox: spec.vars.SANDBOX_PROVIDER === "cloudflare" })
        : spec.entry,
      url: spec.name === WORKERS.gateway,
      environment,
      compatibility: { date: COMPATIBILITY_DATE },
      ...(ownClasses.length ? { migrations: [{ tag: "v1", newSqliteClasses: [...new Set(ownClasses)] }] } : {}),
      transform: {
        worker: (args) => {
          // Bindings under the names the code reads (env.AGENT, env.JOBS…), which SST's `link` cannot choose.
          args.bindings = $output(args.bindings ?? []).apply((existing) => [...existing, ...(bindings as typeof existing)]);
          // Workers Logs: each Worker's structured JSON lines (http/log.ts), with invocation logs, kept and searchable.
          args.observability = { enabled: true, headSamplingRate: 1, logs: { enabled: true, invocationLogs: true, headSamplingRate: 1 } };
        },
      },
    });
    workers.set(spec.name, worker);
    scripts.set(spec.name, worker.nodes.worker.scriptName);
  }
  return { workers, scripts };
}

/** SST component names are PascalCase-ish identifiers: "resources-example-multi-step" → "ResourcesExampleMultiStep". */
export function componentName(worker: string): string {
  return worker
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join("");
}

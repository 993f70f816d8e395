// The deployment's resource graph, evaluated with SST's components replaced by recorders, and held to the local emulation's.
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { environmentBinding, environmentWorkerName } from "../../contracts/names.js";
import { discoverEnvironments } from "../../infra/environments.js";
import { topology } from "../../infra/topology.js";
import { wranglerConfig } from "../../infra/wrangler.js";
import { workerOptions } from "../../local/emulation.js";
import { PROJECT_ROOT } from "../../local/paths.js";
import { installRecorders, type Recorded } from "./recorder.js";

// Imported by path: infra/index.ts is typed against SST's platform globals, checked by tsconfig.sst.json.
const INFRA = path.join(PROJECT_ROOT, "infra", "index.ts");

async function deployGraph(environments?: string): Promise<{ created: Recorded[]; outputs: Record<string, unknown> }> {
  const created = installRecorders();
  const previous = process.env.EDGEGYM_ENVIRONMENTS;
  if (environments === undefined) delete process.env.EDGEGYM_ENVIRONMENTS;
  else process.env.EDGEGYM_ENVIRONMENTS = environments;
  try {
    const infra = (await import(INFRA)) as { deploy(root: string): Promise<Record<string, unknown>> };
    return { created, outputs: await infra.deploy(PROJECT_ROOT) };
  } finally {
    if (previous === undefined) delete process.env.EDGEGYM_ENVIRONMENTS;
    else process.env.EDGEGYM_ENVIRONMENTS = previous;
  }
}

const workers = (created: Recorded[]) => created.filter((r) => r.kind === "Worker");
const worker = (created: Recorded[], name: string) => {
  const found = workers(created).find((w) => w.name === name);
  if (!found)
    throw new Error(
      `no Worker ${name}: ${workers(created)
        .map((w) => w.name)
        .join(", ")}`,
    );
  return found;
};
const binding = (w: Recorded, name: string) => w.bindings?.find((b) => b.name === name);
const component = (worker: string) =>
  worker
    .split("-")
    .map((p) => p[0]!.toUpperCase() + p.slice(1))
    .join("");

afterEach(() => {
  delete process.env.EDGEGYM_ENVIRONMENTS;
});

describe("the default deployment (every environment)", () => {
  it("has every Worker production needs, with its bindings, migrations and secrets", async () => {
    const { created, outputs } = await deployGraph();
    const environments = discoverEnvironments(PROJECT_ROOT);
    expect(
      workers(created)
        .map((w) => w.name)
        .sort(),
    ).toEqual(["Gateway", "Agent", "ModelProxy", "JudgeProxy", "Writer", ...environments.map((e) => component(environmentWorkerName(e)))].sort());
    expect(outputs.gateway).toBe("https://Gateway.workers.dev");

    const gateway = worker(created, "Gateway");
    expect(gateway.args.url).toBe(true);
    expect(binding(gateway, "AGENT")).toEqual({ type: "service", name: "AGENT", service: "script:Agent", entrypoint: "AgentEntrypoint" });
    expect(binding(gateway, "MODEL_PROXY")).toMatchObject({ type: "service", service: "script:ModelProxy" });
    expect(binding(gateway, "JOBS")).toEqual({ type: "durable_object_namespace", name: "JOBS", className: "Job", scriptName: "script:Writer" });
    expect(binding(gateway, "ROLLOUTS")).toEqual({ type: "queue", name: "ROLLOUTS", queueName: "queue:Rollouts" });
    expect(binding(gateway, "BUCKET")).toEqual({ type: "r2_bucket", name: "BUCKET", bucketName: "bucket:Bucket" });
    expect(binding(gateway, "API_TOKENS")).toEqual({ type: "secret_text", name: "API_TOKENS", text: "secret:ApiTokens" });
    // Its own Durable Objects: a token bucket per token name, the deployment's admission counter.
    expect(gateway.args.migrations).toEqual([{ tag: "v1", newSqliteClasses: ["TokenRateLimiter", "Admission"] }]);
    expect(binding(gateway, "RATE_LIMITS")).toEqual({ type: "durable_object_namespace", name: "RATE_LIMITS", className: "TokenRateLimiter" });
    expect(binding(gateway, "ADMISSION")).toEqual({ type: "durable_object_namespace", name: "ADMISSION", className: "Admission" });
    for (const env of environments) {
      expect(binding(gateway, environmentBinding(env))).toMatchObject({ type: "service", service: `script:${component(environmentWorkerName(env))}` });
    }
    expect((gateway.args.environment as Record<string, string>).ENVIRONMENTS).toBe(environments.join(","));

    const agent = worker(created, "Agent");
    expect(binding(agent, "RESULTS")).toMatchObject({ type: "queue", queueName: "queue:Results" });
    expect(agent.args.url).toBe(false);

    const writer = worker(created, "Writer");
    expect(writer.args.migrations).toEqual([{ tag: "v1", newSqliteClasses: ["Job"] }]);
    expect(binding(writer, "JOBS")).toEqual({ type: "durable_object_namespace", name: "JOBS", className: "Job" });

    for (const proxy of ["ModelProxy", "JudgeProxy"]) {
      const w = worker(created, proxy);
      expect(
        w.bindings
          ?.filter((b) => b.type === "secret_text")
          .map((b) => b.name)
          .sort(),
      ).toEqual(["MODEL_API_KEY", "MODEL_BASE_URLS", "MODEL_NAME"]);
      // Model settings are secrets when deployed, never plain variables.
      expect(w.args.environment).toEqual({});
    }
    expect(binding(worker(created, "ModelProxy"), "MODEL_BASE_URLS")).toMatchObject({ text: "secret:ModelBaseUrls" });

    for (const env of environments) {
      const w = worker(created, component(environmentWorkerName(env)));
      expect(w.args.handler).toBe(`.edgegym/entries/${environmentWorkerName(env)}.ts`);
      expect(w.args.migrations).toEqual([{ tag: "v1", newSqliteClasses: ["EnvironmentSession"] }]);
      expect(binding(w, "SESSIONS")).toEqual({ type: "durable_object_namespace", name: "SESSIONS", className: "EnvironmentSession" });
      expect(binding(w, "JUDGE")).toMatchObject({ type: "service", service: "script:JudgeProxy" });
      // Session ids are signed with the deployment's one secret.
      expect(binding(w, "SESSION_SECRET")).toEqual({ type: "secret_text", name: "SESSION_SECRET", text: "secret:SessionSecret" });
    }
  });

  it("has both queues with dead-letter queues, and their consumers", async () => {
    const { created } = await deployGraph();
    expect(
      created
        .filter((r) => r.kind === "Queue")
        .map((q) => q.name)
        .sort(),
    ).toEqual(["Results", "ResultsDlq", "Rollouts", "RolloutsDlq"]);
    const consumers = created.filter((r) => r.kind === "QueueConsumer").map((c) => c.args);
    expect(consumers).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          queueId: "queue-id:Rollouts",
          scriptName: "script:Agent",
          deadLetterQueue: "queue:RolloutsDlq",
          settings: expect.objectContaining({ batchSize: 100, maxRetries: 5 }),
        }),
        expect.objectContaining({ queueId: "queue-id:RolloutsDlq", scriptName: "script:Agent" }),
        expect.objectContaining({ queueId: "queue-id:Results", scriptName: "script:Writer", deadLetterQueue: "queue:ResultsDlq" }),
        // A result that could not be written still ends as a failure record: the writer consumes its dead letters too.
        expect.objectContaining({ queueId: "queue-id:ResultsDlq", scriptName: "script:Writer" }),
      ]),
    );
    expect(consumers).toHaveLength(4);
  });

  it("turns Workers observability (logs, invocation logs) on for every Worker", async () => {
    const { created } = await deployGraph();
    for (const w of workers(created)) {
      expect(w.observability, w.name).toMatchObject({ enabled: true, logs: { enabled: true, invocationLogs: true } });
    }
    const wrangler = wranglerConfig(topology({ environments: ["mcqa"], modelBaseUrl: "http://m/v1", modelName: "m" })[0]!, "index.js");
    expect(wrangler.observability).toEqual({ enabled: true, head_sampling_rate: 1 });
  });

  it("declares the secrets, optional ones with a placeholder", async () => {
    const { created } = await deployGraph();
    const secrets = Object.fromEntries(created.filter((r) => r.kind === "Secret").map((s) => [s.name, s.args.placeholder]));
    expect(secrets).toEqual({
      ModelBaseUrls: undefined,
      ModelName: undefined,
      ModelApiKey: "",
      JudgeBaseUrls: "",
      JudgeModelName: "",
      JudgeApiKey: "",
      ApiTokens: undefined,
      TenantQuotas: "",
      SessionSecret: undefined,
    });
  });
});

describe("a chosen subset of environments", () => {
  it("deploys only those environments' Workers and registers only them", async () => {
    const { created } = await deployGraph("example_single_tool_call,example_session_state_mgmt");
    const resources = workers(created)
      .filter((w) => w.name.startsWith("Resources"))
      .map((w) => w.name)
      .sort();
    expect(resources).toEqual(["ResourcesExampleSessionStateMgmt", "ResourcesExampleSingleToolCall"]);
    const gateway = worker(created, "Gateway");
    expect((gateway.args.environment as Record<string, string>).ENVIRONMENTS).toBe("example_single_tool_call,example_session_state_mgmt");
    expect(
      gateway.bindings
        ?.filter((b) => String(b.name).startsWith("ENV_"))
        .map((b) => b.name)
        .sort(),
    ).toEqual(["ENV_EXAMPLE_SESSION_STATE_MGMT", "ENV_EXAMPLE_SINGLE_TOOL_CALL"]);
  });

  it("an unknown name stops the deploy with the known ones listed", async () => {
    await expect(deployGraph("example_single_tool_call,nope")).rejects.toThrow(/unknown environment\(s\): nope \(known: .*example_multi_step/);
  });
});

describe("local and deployed share one description", () => {
  it("every Worker's bindings, classes and consumers match between the SST graph and Miniflare's configuration", async () => {
    const environments = discoverEnvironments(PROJECT_ROOT);
    const { created } = await deployGraph();
    const specs = topology({ environments, modelBaseUrl: "http://127.0.0.1:1/v1", modelName: "m" });
    const consumers = created.filter((r) => r.kind === "QueueConsumer");
    for (const spec of specs) {
      const local = workerOptions(spec, { path: "x.js", contents: "" }, {});
      const deployed = worker(created, component(spec.name));
      const deployedOf = (type: string) => (deployed.bindings ?? []).filter((b) => b.type === type);
      expect(Object.keys(local.serviceBindings ?? {}).sort(), spec.name).toEqual(
        deployedOf("service")
          .map((b) => b.name)
          .sort(),
      );
      // Every internal call is RPC: the same Worker and the same named entrypoint on both sides.
      for (const b of deployedOf("service")) {
        const target = (local.serviceBindings as Record<string, { name: string; entrypoint?: string }>)[String(b.name)]!;
        expect(`script:${component(target.name)}`).toBe(b.service);
        expect(target.entrypoint, `${spec.name}.${String(b.name)}`).toBeDefined();
        expect(target.entrypoint).toBe(b.entrypoint);
      }
      expect(Object.keys(local.durableObjects ?? {}).sort(), spec.name).toEqual(
        deployedOf("durable_object_namespace")
          .map((b) => b.name)
          .sort(),
      );
      expect(Object.keys(local.queueProducers ?? {}).sort(), spec.name).toEqual(
        deployedOf("queue")
          .map((b) => b.name)
          .sort(),
      );
      expect(Object.keys((local.r2Buckets as Record<string, string>) ?? {}).sort(), spec.name).toEqual(
        deployedOf("r2_bucket")
          .map((b) => b.name)
          .sort(),
      );
      const localConsumers = Object.keys(local.queueConsumers ?? {}).length;
      expect(
        consumers.filter((c) => c.args.scriptName === `script:${component(spec.name)}`),
        spec.name,
      ).toHaveLength(localConsumers);
    }
  });
});

// The AWS side's resource graph (EDGEGYM_BACKEND=aws|both), evaluated with SST's components replaced by recorders, and its
// generated Lambda entry bundled and loaded as Lambda would load it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { afterEach, describe, expect, it } from "vitest";
import { chooseEnvironments, lambdaEntrySource, NEEDS_DURABLE_OBJECT } from "../../infra/lambda-entry.js";
import { discoverEnvironments } from "../../infra/environments.js";
import { PROJECT_ROOT } from "../../local/paths.js";
import { installRecorders, type Recorded } from "./recorder.js";

const INFRA = path.join(PROJECT_ROOT, "infra", "index.ts");

async function deployGraph(backend: string): Promise<{ created: Recorded[]; outputs: Record<string, unknown> }> {
  const created = installRecorders();
  process.env.EDGEGYM_BACKEND = backend;
  const infra = (await import(INFRA)) as { deploy(root: string): Promise<Record<string, unknown>> };
  return { created, outputs: await infra.deploy(PROJECT_ROOT) };
}

afterEach(() => {
  delete process.env.EDGEGYM_BACKEND;
});

const of = (created: Recorded[], kind: string) => created.filter((r) => r.kind === kind);

describe("EDGEGYM_BACKEND=aws", () => {
  it("creates the queue with its dead-letter queue, the bucket, and the agent Lambda subscribed to both with partial batch responses", async () => {
    const { created, outputs } = await deployGraph("aws");
    // No Cloudflare resource at all.
    expect(created.filter((r) => ["Worker", "Queue", "Bucket", "QueueConsumer"].includes(r.kind))).toEqual([]);
    expect(of(created, "aws.Bucket").map((b) => b.name)).toEqual(["JobsBucket"]);
    const queues = of(created, "aws.Queue");
    expect(queues.map((q) => q.name).sort()).toEqual(["RolloutsDlqQueue", "RolloutsQueue"]);
    const queue = queues.find((q) => q.name === "RolloutsQueue")!;
    expect(queue.args).toEqual({ visibilityTimeout: "960 seconds", dlq: { queue: "arn:queue:RolloutsDlqQueue", retry: 5 } });

    const [agent, ...others] = of(created, "aws.Function");
    expect(others).toEqual([]);
    expect(agent!.args).toMatchObject({ handler: ".edgegym/entries/agent-lambda.handler", timeout: "900 seconds", architecture: "arm64" });
    const environment = agent!.args.environment as Record<string, unknown>;
    expect(environment).toMatchObject({
      EDGEGYM_QUEUE_URL: "https://sqs/RolloutsQueue",
      EDGEGYM_DLQ_URL: "https://sqs/RolloutsDlqQueue",
      EDGEGYM_BUCKET: "bucket:JobsBucket",
      EDGEGYM_VISIBILITY_TIMEOUT: "960",
      MODEL_BASE_URLS: "secret:ModelBaseUrls",
      MODEL_NAME: "secret:ModelName",
    });
    // The rollout's deadline ends before Lambda's, whose timeout stays under the queue's visibility timeout.
    expect(Number(environment.ROLLOUT_TIMEOUT_MS)).toBeLessThan(900_000);
    expect((agent!.args.link as unknown[]).length).toBe(3);

    const subscribers = of(created, "aws.QueueSubscriber");
    expect(subscribers.map((s) => s.name).sort()).toEqual(["RolloutsDlqQueue", "RolloutsQueue"]);
    for (const subscriber of subscribers) {
      expect(subscriber.args).toEqual({ subscriber: "arn:function:AgentFunction", batch: { size: 10, partialResponses: true } });
    }
    expect(outputs).toMatchObject({ queueUrl: "https://sqs/RolloutsQueue", bucket: "bucket:JobsBucket" });
    expect(outputs.gateway).toBeUndefined();
    // Without a gateway no bearer token is asked for.
    expect(created.find((r) => r.kind === "Secret" && r.name === "ApiTokens")?.args).toEqual({ placeholder: "" });
  });

  it("both: the Cloudflare side as before, and the AWS side beside it", async () => {
    const { created, outputs } = await deployGraph("both");
    expect(of(created, "Worker").length).toBeGreaterThan(5);
    expect(of(created, "aws.Function")).toHaveLength(1);
    expect(outputs.gateway).toBe("https://Gateway.workers.dev");
    expect(outputs.queueUrl).toBe("https://sqs/RolloutsQueue");
    expect(created.find((r) => r.kind === "Secret" && r.name === "ApiTokens")?.args).toEqual({ placeholder: undefined });
  });

  it("a backend it does not know is refused", async () => {
    await expect(deployGraph("gcp")).rejects.toThrow(/EDGEGYM_BACKEND must be cloudflare, aws or both/);
  });
});

describe("the agent Lambda's entry", () => {
  it("carries every environment that runs in process (text_to_sql needs a Durable Object's SQLite and is left out)", () => {
    const all = discoverEnvironments(PROJECT_ROOT);
    expect(chooseEnvironments(PROJECT_ROOT)).toEqual(all.filter((name) => !NEEDS_DURABLE_OBJECT.has(name)));
    expect(chooseEnvironments(PROJECT_ROOT)).not.toContain("text_to_sql");
    expect(chooseEnvironments(PROJECT_ROOT, "mcqa,text_to_sql")).toEqual(["mcqa", "text_to_sql"]);
    expect(() => chooseEnvironments(PROJECT_ROOT, "nope")).toThrow(/unknown environment/);
  });

  it("bundles for Node as Lambda's esbuild would, and exports a handler that answers an empty SQS event", { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "edgegym-lambda-"));
    try {
      const outfile = path.join(dir, "agent-lambda.mjs");
      await build({
        stdin: { contents: lambdaEntrySource(chooseEnvironments(PROJECT_ROOT), "."), resolveDir: PROJECT_ROOT, sourcefile: "agent-lambda.ts", loader: "ts" },
        outfile,
        bundle: true,
        platform: "node",
        format: "esm",
        target: "node20",
        logLevel: "silent",
        // What ESM bundles of CommonJS dependencies need on Node (SST's own Lambda builds add the same banner).
        banner: { js: "import { createRequire as topLevelCreateRequire } from 'module'; const require = topLevelCreateRequire(import.meta.url);" },
      });
      const { handler } = (await import(pathToFileURL(outfile).href)) as { handler: (event: unknown) => Promise<unknown> };
      const saved = { ...process.env };
      Object.assign(process.env, {
        EDGEGYM_QUEUE_URL: "https://sqs.us-east-1.amazonaws.com/123456789012/rollouts",
        EDGEGYM_BUCKET: "jobs",
        AWS_REGION: "us-east-1",
        MODEL_BASE_URLS: "http://127.0.0.1:9/v1",
        MODEL_NAME: "m",
      });
      try {
        expect(await handler({ Records: [] })).toEqual({ batchItemFailures: [] });
      } finally {
        for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

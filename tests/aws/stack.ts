// The AWS path on this machine for a test file: fauxqs (SQS + S3), the conditional-write front (local/aws/conditional-s3.ts) before its S3 (so
// records meet a real 412), the vLLM simulator as the model, and the variables a Lambda or `edgegym worker` reads.
import { readFileSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { createInterface } from "node:readline";
import { awsAgent, bucketStore, parseBucket } from "../../aws/ports.js";
import type { Environment } from "../../environments/sdk/index.js";
import { createJob, DEFAULT_JOB_CAPS, numberedLines } from "../../ledger/index.js";
import { PROJECT_ROOT } from "../../local/paths.js";
import { type Simulator, startSimulator } from "../../local/simulator/server.js";
import { createQueueWithDlq, sqsQueue } from "../../queues/sqs.js";
import { awsClients } from "../../storage/aws.js";
import { startConditionalFront } from "../../local/aws/conditional-s3.js";
import { type LocalAws, startLocalAws, unique } from "./fauxqs.js";

export interface AwsStack {
  aws: LocalAws;
  simulator: Simulator;
  /** S3 through the conditional proxy (If-None-Match honoured), SQS straight to fauxqs. */
  env: Record<string, string>;
  clients: ReturnType<typeof awsClients>;
  stop(): Promise<void>;
}

export async function startAwsStack(simulatorLatencyMs = 0): Promise<AwsStack> {
  const aws = await startLocalAws();
  const proxy = await startConditionalFront(aws.endpoint);
  const simulator = await startSimulator({ latencyMs: simulatorLatencyMs });
  const env = {
    AWS_ENDPOINT_URL_SQS: aws.endpoint,
    AWS_ENDPOINT_URL_S3: proxy.url,
    AWS_REGION: "us-east-1",
    MODEL_BASE_URLS: `${simulator.url}/v1`,
    MODEL_NAME: simulator.model,
    MODEL_MAX_ATTEMPTS: "1",
    RETRY_BASE_SECONDS: "0",
  };
  const clients = awsClients(env);
  return {
    aws,
    simulator,
    env,
    clients,
    async stop() {
      clients.s3.destroy();
      clients.sqs.destroy();
      await simulator.close();
      await proxy.close();
      await aws.stop();
    },
  };
}

export interface QueueAndBucket {
  queueUrl: string;
  dlqUrl: string;
  dlqArn: string;
  queueArn: string;
  bucket: string;
}

/** A fresh `rollouts` queue with its dead-letter queue (after `maxReceiveCount` deliveries) and a fresh bucket. */
export async function queueAndBucket(stack: AwsStack, maxReceiveCount = 5, visibilityTimeout = 30): Promise<QueueAndBucket> {
  const name = unique("rollouts");
  const queue = await createQueueWithDlq(stack.clients.sqs, name, maxReceiveCount, { VisibilityTimeout: String(visibilityTimeout) });
  const bucket = unique("bucket");
  stack.aws.server.createBucket(bucket);
  const queueArn = stack.aws.server.inspectQueue(name)!.arn;
  return { ...queue, queueArn, bucket: `s3://${bucket}/edgegym` };
}

export const exampleFile = (name: string) => path.join(PROJECT_ROOT, "environments", name, "data", "example.jsonl");
export const exampleRows = (name: string) => readFileSync(exampleFile(name), "utf8").trim().split("\n").length;

export async function loadEnvironment(name: string): Promise<Record<string, Environment>> {
  const module = (await import(`../../environments/${name}/index.ts`)) as { default: Environment };
  return { [name]: module.default };
}

/** A job of a JSONL text enqueued as `edgegym collect --queue-url … --bucket …` does it. */
export async function enqueueJob(stack: AwsStack, where: QueueAndBucket, jsonl: string, environment: string, numRepeats: number) {
  const store = bucketStore(stack.clients, parseBucket(where.bucket));
  const { jobs } = awsAgent({ clients: stack.clients, queueUrl: where.queueUrl, bucket: parseBucket(where.bucket), environments: {}, env: stack.env });
  const lines = createInterface({ input: Readable.from([jsonl]), crlfDelay: Number.POSITIVE_INFINITY });
  return createJob({ store, ledger: jobs, rollouts: sqsQueue(stack.clients.sqs, where.queueUrl) }, numberedLines(lines), {
    environment,
    num_repeats: numRepeats,
    environments: [environment],
    caps: DEFAULT_JOB_CAPS,
  });
}

export { lambdaRecord } from "./lambda-event.js";

// The agent's ports on AWS, for the Lambda and for `edgegym worker`: SQS for work, S3 for inputs and records, the model and
// the environments in process. The agent's logic (handleWork) is the Worker's, unchanged.
import type { SQSClient } from "@aws-sdk/client-sqs";
import { AgentVars, parseVars } from "../contracts/config.js";
import type { WorkMessage } from "../contracts/messages.js";
import type { EnvironmentRpc } from "../contracts/rpc.js";
import { type Environment, inProcessEnvironment } from "../environments/sdk/index.js";
import { sandboxProvider } from "../environments/sdk/sandbox/provider-config.js";
import type { AgentPorts } from "../functions/agent/ports.js";
import { type BucketJobs, bucketJobs } from "../ledger/index.js";
import { guardedQueue } from "../queues/guarded.js";
import { sqsQueue } from "../queues/sqs.js";
import type { AwsClients } from "../storage/aws.js";
import { guardedStore, type StoreGuards } from "../storage/guarded.js";
import { s3Store } from "../storage/s3.js";
import type { ObjectStore } from "../storage/store.js";
import { inProcessModel, judgeVars, policyVars } from "./model.js";

type Vars = Record<string, string | undefined>;

/** Where a job's objects live: `s3://bucket/prefix` (or a bare bucket name). */
export interface BucketLocation {
  bucket: string;
  /** Empty, or ending in "/". */
  prefix: string;
}

export function parseBucket(spec: string): BucketLocation {
  const match = /^(?:s3:\/\/)?([^/]+)\/?(.*)$/.exec(spec.trim());
  if (!match?.[1]) throw new Error(`"${spec}" is not a bucket: give s3://bucket or s3://bucket/prefix`);
  const prefix = match[2]!.replace(/^\/+|\/+$/g, "");
  return { bucket: match[1], prefix: prefix ? `${prefix}/` : "" };
}

/**
 * The job store of a bucket location; "emulated" conditional writes only for an endpoint that ignores If-None-Match (see
 * s3Store). Every call is bounded in time, as on Cloudflare (storage/guarded.ts); `guards` adds the chaos suite's faults.
 */
export function bucketStore(
  clients: Pick<AwsClients, "s3">,
  location: BucketLocation,
  conditionalWrites: "native" | "emulated" = "native",
  guards: StoreGuards = {},
): ObjectStore {
  return guardedStore(s3Store(clients.s3, location.bucket, location.prefix, { conditionalWrites }), guards);
}

export interface AwsAgentOptions {
  clients: AwsClients;
  /** The `rollouts` queue: expand messages fan out onto it. */
  queueUrl: string;
  bucket: BucketLocation;
  environments: Record<string, Environment>;
  /** The agent's variables (MAX_ATTEMPTS, …) and the model's; default process.env. */
  env?: Vars;
  /** "emulated" for a bucket endpoint that ignores If-None-Match: exactly once within this process only. */
  conditionalWrites?: "native" | "emulated";
}

export interface AwsAgent {
  ports: AgentPorts;
  jobs: BucketJobs;
  sqs: SQSClient;
}

/**
 * In-process environment surfaces, each with the judge model for its LLM-as-judge calls and, for one that declares a
 * sandbox, the sandbox service its variables name (SANDBOX_PROVIDER remote, SANDBOX_URL, SANDBOX_TOKEN: README, Sandboxes).
 */
export function environmentSurfaces(environments: Record<string, Environment>, env: Vars): Map<string, EnvironmentRpc> {
  const judge = inProcessModel(judgeVars(env));
  const sandbox = () => sandboxProvider(env);
  return new Map(Object.entries(environments).map(([name, definition]) => [name, inProcessEnvironment(definition, { judge, sandbox })]));
}

export function awsAgent(options: AwsAgentOptions): AwsAgent {
  const env = options.env ?? process.env;
  const names = Object.keys(options.environments);
  const config = parseVars(AgentVars, { ...env, ENVIRONMENTS: names.join(",") }, "agent");
  const surfaces = environmentSurfaces(options.environments, env);
  const store = bucketStore(options.clients, options.bucket, options.conditionalWrites, { writeFailureRate: config.CHAOS_STORE_WRITE_FAILURE_RATE });
  const rollouts = guardedQueue(sqsQueue<WorkMessage>(options.clients.sqs, options.queueUrl), { sendFailureRate: config.CHAOS_QUEUE_SEND_FAILURE_RATE });
  const jobs = bucketJobs(store, { environment: (name) => surfaces.get(name), rollouts: () => rollouts });
  const ports: AgentPorts = {
    config,
    model: inProcessModel(policyVars(env)),
    environment: (name) => surfaces.get(name),
    environments: names,
    // Sends bounded in time, as on Cloudflare (queues/guarded.ts); the chaos rate is 0 outside the chaos suite.
    rollouts,
    // Results go straight into the bucket's ledger: no queue and no writer between the agent and the bucket.
    results: jobs,
    store,
    job: (id) => ({
      wanted: () => jobs.wanted(id),
      started: (count) => jobs.started(id, count),
      abandon: (scope, failure) => jobs.abandon(id, scope, failure),
    }),
  };
  return { ports, jobs, sqs: options.clients.sqs };
}

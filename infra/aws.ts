// The AWS side: the `rollouts` SQS queue with its dead-letter queue, the bucket, and the agent Lambda subscribed to both
// with partial batch responses. The same agent code as the Worker (functions/agent/consumer.ts); only the entry differs.
import { chooseEnvironments, writeLambdaEntry } from "./lambda-entry.js";
import { deployedRemotes, remoteSecrets } from "./remote.js";
import type { Secrets } from "./secrets.js";
import { tenantPolicyDocument, tenantsFromEnv } from "./tenants.js";

/** Lambda's longest run; a rollout's own deadline ends a minute before it, so its failure record is still written. */
export const LAMBDA_TIMEOUT_SECONDS = 900;
export const ROLLOUT_TIMEOUT_MS = 840_000;
/**
 * SQS refuses a Lambda subscription whose queue hides a message for less than the function's timeout; a minute over it.
 * A message whose invocation died (timeout, out of memory) comes back after this.
 */
export const VISIBILITY_TIMEOUT_SECONDS = 960;
/** Deliveries before SQS moves a message to the dead-letter queue: more than the agent's own 3 attempts, so those end first. */
export const MAX_RECEIVE_COUNT = 5;

export interface AwsDeployment {
  queue: sst.aws.Queue;
  dlq: sst.aws.Queue;
  bucket: sst.aws.Bucket;
  agent: sst.aws.Function;
  /** One IAM policy per tenant of EDGEGYM_TENANTS (infra/tenants.ts), by name. */
  tenantPolicies: Record<string, IamPolicy>;
}

/** An SST secret's value by its name; shared with the Cloudflare side so that `both` declares each secret once. */
export type SecretValue = (name: string) => $util.Input<string>;

export function createAws(
  root: string,
  secrets: Secrets,
  chosen = process.env.EDGEGYM_ENVIRONMENTS,
  secret: SecretValue = (name) => new sst.Secret(name).value,
): AwsDeployment {
  const environments = chooseEnvironments(root, chosen);
  // Remote NeMo Gym servers (edgegym.remote.json, issue 24): the file's entries as EDGEGYM_REMOTES (aws/remotes.ts reads
  // it), each auth secret an env var of the Lambda by the name the entry gives it, its value an SST secret.
  const remotes = deployedRemotes(root, environments);
  const remoteEnv = remotes.length ? { EDGEGYM_REMOTES: JSON.stringify({ remotes: remotes.map((r) => r.config) }), ...remoteSecrets(remotes, secret) } : {};
  const tenants = tenantsFromEnv();
  const bucket = new sst.aws.Bucket("JobsBucket");
  const dlq = new sst.aws.Queue("RolloutsDlqQueue");
  const queue = new sst.aws.Queue("RolloutsQueue", {
    visibilityTimeout: `${VISIBILITY_TIMEOUT_SECONDS} seconds`,
    dlq: { queue: dlq.arn, retry: MAX_RECEIVE_COUNT },
  });
  // An unset judge falls back to the policy model, as on Cloudflare.
  const or = (judge: sst.Secret, policy: sst.Secret) => $resolve([judge.value, policy.value]).apply(([j, p]) => j || p);
  const agent = new sst.aws.Function("AgentFunction", {
    handler: writeLambdaEntry(root, environments),
    timeout: `${LAMBDA_TIMEOUT_SECONDS} seconds`,
    memory: "1024 MB",
    architecture: "arm64",
    link: [queue, dlq, bucket],
    environment: {
      EDGEGYM_QUEUE_URL: queue.url,
      EDGEGYM_DLQ_URL: dlq.url,
      EDGEGYM_BUCKET: bucket.name,
      EDGEGYM_VISIBILITY_TIMEOUT: String(VISIBILITY_TIMEOUT_SECONDS),
      ROLLOUT_TIMEOUT_MS: String(ROLLOUT_TIMEOUT_MS),
      MODEL_BASE_URLS: secrets.modelBaseUrls.value,
      MODEL_NAME: secrets.modelName.value,
      MODEL_API_KEY: secrets.modelApiKey.value,
      JUDGE_BASE_URLS: or(secrets.judgeBaseUrls, secrets.modelBaseUrls),
      JUDGE_MODEL_NAME: or(secrets.judgeModelName, secrets.modelName),
      JUDGE_API_KEY: or(secrets.judgeApiKey, secrets.modelApiKey),
      ...remoteEnv,
    },
  });
  // Only the messages the handler names come back (batchItemFailures); the dead-letter queue's batches become failure records.
  const batch = { batch: { size: 10, partialResponses: true } };
  queue.subscribe(agent.arn, batch);
  dlq.subscribe(agent.arn, batch);
  return { queue, dlq, bucket, agent, tenantPolicies: createTenantPolicies(tenants, bucket, queue) };
}

/** An IAM policy of Pulumi's AWS provider: what the tenants' policies need of it. */
interface IamPolicy {
  arn: $util.Output<string>;
}
type IamPolicyClass = new (name: string, args: { description: string; policy: $util.Input<string> }) => IamPolicy;

/** The aws provider's `iam.Policy`, checked at run time: a clear error when SST was not set up for AWS. */
function providerPolicyClass(): IamPolicyClass {
  const aws: unknown = Reflect.get(globalThis, "aws");
  const iam: unknown = typeof aws === "object" && aws !== null ? Reflect.get(aws, "iam") : undefined;
  const Policy: unknown = typeof iam === "object" && iam !== null ? Reflect.get(iam, "Policy") : undefined;
  if (typeof Policy !== "function") throw new Error("EDGEGYM_TENANTS needs SST's aws provider (deploy with EDGEGYM_BACKEND=aws or both)");
  return Policy as IamPolicyClass;
}

/**
 * One IAM policy per tenant, by name (TenantTeamAPolicy for team-a). The provider's `aws` global exists when SST deploys
 * to AWS; it is reached through globalThis so that infra/ type-checks whichever providers `sst install` set up.
 */
function createTenantPolicies(tenants: string[], bucket: sst.aws.Bucket, queue: sst.aws.Queue): Record<string, IamPolicy> {
  if (tenants.length === 0) return {};
  const Policy = providerPolicyClass();
  const pascal = (name: string) => name.replace(/(^|-)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase());
  return Object.fromEntries(
    tenants.map((tenant) => [
      tenant,
      new Policy(`Tenant${pascal(tenant)}Policy`, {
        description: `edgegym tenant ${tenant}: its own jobs in the bucket, and sending rollouts`,
        policy: $resolve([bucket.arn, queue.arn]).apply(([bucketArn, queueArn]) => JSON.stringify(tenantPolicyDocument(tenant, bucketArn, queueArn))),
      }),
    ]),
  );
}

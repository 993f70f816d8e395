// The whole deployment, from the same topology the local emulation runs: storage, queues, secrets, Workers, consumers;
// and, with EDGEGYM_BACKEND=aws or both, the AWS side (SQS queues, the bucket, the agent Lambda).
import { createAws, type SecretValue } from "./aws.js";
import { deploysAws, deploysCloudflare, selectedBackend } from "./backend.js";
import { selectedEnvironments } from "./environments.js";
import { createWorkers } from "./functions.js";
import { gatewayVarsFromEnv } from "./gateway-vars.js";
import { containerServer, writeContainerConfig } from "./nemo-gym-container.js";
import { createConsumers, createQueues } from "./queues.js";
import { deployedRemotes, remoteSecrets, withRemotes } from "./remote.js";
import { createSecrets } from "./secrets.js";
import { createStorage } from "./storage.js";
import { topology } from "./topology.js";

function deployCloudflare(root: string, secrets: ReturnType<typeof createSecrets>, secret: SecretValue) {
  const native = selectedEnvironments(root);
  // Remote NeMo Gym servers (edgegym.remote.json, issue 24): one generated Worker each, their auth secrets SST secrets.
  const remotes = deployedRemotes(root, native);
  const environments = [...native, ...remotes.map((r) => r.config.name)];
  const specs = withRemotes(topology({ environments, modelBaseUrl: "", modelName: "", vars: { gateway: gatewayVarsFromEnv() } }), remotes, root);
  const { bucket } = createStorage();
  const queues = createQueues();
  const extra = remoteSecrets(remotes, secret);
  const { workers, scripts } = createWorkers(root, specs, secrets, queues, bucket, extra);
  createConsumers(specs, scripts, queues);
  // A NeMo Gym resources server on Cloudflare Containers (EDGEGYM_NEMO_GYM_CONTAINER): its wrangler config written, the
  // command that deploys it an output (SST has no Container component; infra/nemo-gym-container.ts).
  const container = containerServer();
  return {
    gateway: workers.get("gateway")!.url,
    environments: environments.join(","),
    ...(container ? { nemoGymContainer: writeContainerConfig(root, container.server, container.domain).deploy } : {}),
  };
}

export async function deploy(root = process.cwd()) {
  const backend = selectedBackend();
  const secrets = createSecrets({ gateway: deploysCloudflare(backend) });
  // A remote's auth secret, declared once when both sides read it.
  const declared = new Map<string, $util.Input<string>>();
  const secret: SecretValue = (name) => declared.get(name) ?? declared.set(name, new sst.Secret(name).value).get(name)!;
  const cloudflare = deploysCloudflare(backend) ? deployCloudflare(root, secrets, secret) : {};
  if (!deploysAws(backend)) return cloudflare;
  const aws = createAws(root, secrets, undefined, secret);
  return {
    ...cloudflare,
    queueUrl: aws.queue.url,
    bucket: aws.bucket.name,
    agentFunction: aws.agent.name,
    tenantPolicies: Object.fromEntries(Object.entries(aws.tenantPolicies).map(([tenant, policy]) => [tenant, policy.arn])),
  };
}

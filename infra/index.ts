// The whole deployment, from the same topology the local emulation runs: storage, queues, secrets, Workers, consumers.
import { selectedEnvironments } from "./environments.js";
import { createWorkers } from "./functions.js";
import { gatewayVarsFromEnv } from "./gateway-vars.js";
import { createConsumers, createQueues } from "./queues.js";
import { createSecrets } from "./secrets.js";
import { createStorage } from "./storage.js";
import { topology } from "./topology.js";

export async function deploy(root = process.cwd()) {
  const environments = selectedEnvironments(root);
  const specs = topology({ environments, modelBaseUrl: "", modelName: "", vars: { gateway: gatewayVarsFromEnv() } });
  const secrets = createSecrets();
  const { bucket } = createStorage();
  const queues = createQueues();
  const { workers, scripts } = createWorkers(root, specs, secrets, queues, bucket);
  createConsumers(specs, scripts, queues);
  return {
    gateway: workers.get("gateway")!.url,
    environments: environments.join(","),
  };
}

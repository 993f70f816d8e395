// Finding an environment's service among a Worker's bindings: only the environments deployed with it answer.
import type { EnvironmentServices } from "./env.generated.js";
import { environmentBinding } from "./names.js";
import type { EnvironmentService } from "./rpc.js";

export function environmentService(env: EnvironmentServices, deployed: readonly string[], name: string): EnvironmentService | undefined {
  if (!deployed.includes(name)) return undefined;
  return env[environmentBinding(name)];
}

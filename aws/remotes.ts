// Remote NeMo Gym servers (issue 24) on the agent Lambda: each an in-process RemoteClient beside the bundled environments.
import type { RemoteEnvironmentConfig } from "../contracts/remote.js";
import { parseRemoteFile } from "../environments/sdk/remote/config.js";
import { remoteEnvironment } from "../environments/sdk/remote/in-process.js";
import type { AgentPorts } from "../functions/agent/ports.js";

/**
 * The agent's ports with remote environments added: each an in-process RemoteClient (environments/sdk/remote/
 * in-process.ts) with its sessions in a Map, listed and resolved like the in-process native ones.
 */
export function withRemotes(ports: AgentPorts, configs: readonly RemoteEnvironmentConfig[], secrets: Record<string, unknown>): AgentPorts {
  if (!configs.length) return ports;
  const clash = configs.find((config) => ports.environments.includes(config.name));
  if (clash) throw new Error(`remote environment ${clash.name} has a bundled environment's name`);
  const remotes = new Map(configs.map((config) => [config.name, remoteEnvironment(config, { secrets })]));
  const environments = [...ports.environments, ...remotes.keys()];
  return {
    ...ports,
    config: { ...ports.config, ENVIRONMENTS: environments },
    environments,
    environment: (name) => remotes.get(name) ?? ports.environment(name),
  };
}

/** The remotes of a Lambda: EDGEGYM_REMOTES holds edgegym.remote.json's text (the deployment sets it); none when unset. */
export function lambdaRemotes(env: Record<string, string | undefined>): RemoteEnvironmentConfig[] {
  const text = env.EDGEGYM_REMOTES;
  return text ? parseRemoteFile(text, "EDGEGYM_REMOTES").map((d) => d.config) : [];
}

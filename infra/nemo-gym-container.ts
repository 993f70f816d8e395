// A NeMo Gym resources server on Cloudflare Containers (issue 24, item 5): the wrangler configuration of its Worker, its
// Durable Object and the container built from infra/containers/nemo-gym/Dockerfile. SST 3's Cloudflare components have
// no Container (nor can a Worker's script declare a container application), so SST writes this file and `wrangler
// deploy` builds, pushes and deploys it; a remote entry then names the Worker's URL.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { CONTAINER_BINDING, CONTAINER_CLASS } from "../environments/sdk/remote/container-names.js";
import { COMPATIBILITY_DATE } from "./topology.js";
import type { WranglerConfig } from "./wrangler.js";

/** NeMo Gym's commit the image installs (the one edgegym's protocol was read from). */
export const NEMO_GYM_COMMIT = "07d6b0d07b22fcf530b4c211dae2ee23100428e4";

export interface ContainerWranglerConfig extends WranglerConfig {
  containers: { class_name: string; image: string; image_vars: Record<string, string>; max_instances: number; instance_type: string }[];
}

/** The resources server to run (EDGEGYM_NEMO_GYM_CONTAINER, a folder of NeMo Gym's resources_servers/), or none. */
export function containerServer(env: NodeJS.ProcessEnv = process.env): { server: string; domain: string } | undefined {
  const server = env.EDGEGYM_NEMO_GYM_CONTAINER?.trim();
  if (!server) return undefined;
  if (!/^[a-z0-9_]+$/.test(server)) throw new Error(`EDGEGYM_NEMO_GYM_CONTAINER: "${server}" is not a NeMo Gym resources server's folder name`);
  return { server, domain: env.EDGEGYM_NEMO_GYM_CONTAINER_DOMAIN?.trim() || "agent" };
}

/** Paths are relative to `dir`, where the config is written. */
export function containerWranglerConfig(root: string, dir: string, server: string, domain: string): ContainerWranglerConfig {
  const rel = (file: string) => path.relative(dir, path.join(root, file)).split(path.sep).join("/");
  return {
    name: `edgegym-nemo-gym-${server.replaceAll("_", "-")}`,
    main: rel("environments/sdk/remote/container-worker.ts"),
    compatibility_date: COMPATIBILITY_DATE,
    observability: { enabled: true, head_sampling_rate: 1 },
    durable_objects: { bindings: [{ name: CONTAINER_BINDING, class_name: CONTAINER_CLASS }] },
    migrations: [{ tag: "v1", new_sqlite_classes: [CONTAINER_CLASS] }],
    containers: [
      {
        class_name: CONTAINER_CLASS,
        image: rel("infra/containers/nemo-gym/Dockerfile"),
        image_vars: { NEMO_GYM_COMMIT, RESOURCES_SERVER: server, DOMAIN: domain },
        // One instance: NeMo Gym keeps its sessions in memory, so every session must reach the same server.
        max_instances: 1,
        instance_type: "standard",
      },
    ],
  };
}

/** Writes `.edgegym/containers/<server>/wrangler.json`; returns the command that deploys it (relative to the root). */
export function writeContainerConfig(root: string, server: string, domain: string): { config: string; deploy: string } {
  const dir = path.join(root, ".edgegym", "containers", server);
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "wrangler.json");
  writeFileSync(file, JSON.stringify(containerWranglerConfig(root, dir, server, domain), null, 2));
  const config = path.relative(root, file);
  return { config, deploy: `npx wrangler deploy --config ${config} && npx wrangler secret put NEMO_GYM_TOKEN --config ${config}` };
}

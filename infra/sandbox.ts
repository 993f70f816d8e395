// SANDBOX_PROVIDER=cloudflare in a deployment (issue 28): the sandbox Worker hosting the Sandbox SDK's container-backed
// Durable Object (its wrangler config: containers, durable_objects, migrations; the image infra/containers/sandbox), and
// which environment Workers bind it. SST 3's Cloudflare components cannot attach a container to a Worker (as for
// infra/nemo-gym-container.ts), so SST writes this config and outputs the `wrangler deploy` that deploys it.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { ContainerWranglerConfig } from "./nemo-gym-container.js";
import { COMPATIBILITY_DATE, SANDBOX_BINDING, SANDBOX_CLASS } from "./topology.js";

export { SANDBOX_BINDING, SANDBOX_CLASS };

/** EDGEGYM_SANDBOX_PROVIDER picks the deployment's provider; only `cloudflare` changes the deployment's resources. */
export function sandboxProviderChoice(env: NodeJS.ProcessEnv = process.env): "cloudflare" | undefined {
  const chosen = env.EDGEGYM_SANDBOX_PROVIDER?.trim().toLowerCase();
  if (!chosen || chosen === "local" || chosen === "remote") return undefined;
  if (chosen === "cloudflare") return "cloudflare";
  throw new Error(`EDGEGYM_SANDBOX_PROVIDER: "${chosen}" is none of local, remote, cloudflare`);
}

/** The sandbox Worker's script name: one per stage, so stages never share containers. */
export function sandboxWorkerName(stage: string): string {
  return `edgegym-sandbox-${stage.toLowerCase().replace(/[^a-z0-9-]+/g, "-")}`;
}

/**
 * Whether environments/<name> declares `sandbox` in defineEnvironment, from its source (SST evaluates infra/ without
 * running environments' code): a `sandbox:` key, or the shorthand `sandbox,`, outside comments.
 */
export function declaresSandbox(root: string, name: string): boolean {
  const file = path.join(root, "environments", name, "index.ts");
  if (!existsSync(file)) return false;
  const code = readFileSync(file, "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/(^|[^:])\/\/.*$/gm, "$1");
  return /(^|[\s{,])sandbox\s*[:,}]/m.test(code);
}

/** The environments of `names` that declare a sandbox. */
export function sandboxEnvironments(root: string, names: string[]): string[] {
  return names.filter((name) => declaresSandbox(root, name));
}

/** Paths relative to `dir`, where the config is written. */
export function sandboxWranglerConfig(root: string, dir: string, name: string): ContainerWranglerConfig & { compatibility_flags: string[] } {
  const rel = (file: string) => path.relative(dir, path.join(root, file)).split(path.sep).join("/");
  return {
    name,
    main: rel("environments/sdk/sandbox/cloudflare-host.ts"),
    compatibility_date: COMPATIBILITY_DATE,
    // The SDK imports node:path/posix.
    compatibility_flags: ["nodejs_compat"],
    observability: { enabled: true, head_sampling_rate: 1 },
    durable_objects: { bindings: [{ name: SANDBOX_BINDING, class_name: SANDBOX_CLASS }] },
    migrations: [{ tag: "v1", new_sqlite_classes: [SANDBOX_CLASS] }],
    containers: [
      {
        class_name: SANDBOX_CLASS,
        image: rel("infra/containers/sandbox/Dockerfile"),
        image_vars: {},
        // One container per live session: this bounds the sessions with a sandbox at once.
        max_instances: 100,
        // Cloudflare's instance types bound memory and disk per container; code_gen asks 4096 MiB of address space.
        instance_type: "standard-1",
      },
    ],
  };
}

/** Writes `.edgegym/containers/sandbox/wrangler.json`; returns it and the command that deploys it (before `sst deploy`). */
export function writeSandboxConfig(root: string, name: string): { config: string; deploy: string } {
  const dir = path.join(root, ".edgegym", "containers", "sandbox");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "wrangler.json");
  writeFileSync(file, JSON.stringify(sandboxWranglerConfig(root, dir, name), null, 2));
  const config = path.relative(root, file);
  return { config, deploy: `npx wrangler deploy --config ${config}` };
}

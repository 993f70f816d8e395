// Builds every Worker with `wrangler deploy --dry-run` and reports its gzipped size; fails past the limit.
import { execFile } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { discoverEnvironments, writeEnvironmentEntry } from "./environments.js";
import { sandboxEnvironments, sandboxWorkerName, sandboxWranglerConfig } from "./sandbox.js";
import { topology, type WorkerSpec } from "./topology.js";
import { wranglerConfig } from "./wrangler.js";

const run = promisify(execFile);
/** Cloudflare's free plan allows 3 MiB gzipped; we hold every Worker to a third of that. */
export const GZIP_LIMIT_BYTES = 1024 * 1024;

export interface BundleSize {
  worker: string;
  bytes: number;
  gzipBytes: number;
}

function bundleBytes(dir: string): { bytes: number; gzipBytes: number } {
  let bytes = 0;
  let gzipBytes = 0;
  for (const file of readdirSync(dir)) {
    const full = path.join(dir, file);
    if (!statSync(full).isFile() || file.endsWith(".map")) continue;
    const content = readFileSync(full);
    bytes += content.length;
    gzipBytes += gzipSync(content, { level: 9 }).length;
  }
  return { bytes, gzipBytes };
}

async function dryRun(root: string, spec: WorkerSpec): Promise<BundleSize> {
  const cloudflareSandbox = spec.vars.SANDBOX_PROVIDER === "cloudflare";
  const dir = path.join(root, ".edgegym", "wrangler", `${spec.name}${cloudflareSandbox ? ".cloudflare-sandbox" : ""}`);
  mkdirSync(dir, { recursive: true });
  const entry = spec.environment ? writeEnvironmentEntry(root, spec.environment, { cloudflareSandbox }) : spec.entry;
  const configFile = path.join(dir, "wrangler.json");
  writeFileSync(configFile, JSON.stringify(wranglerConfig(spec, path.relative(dir, path.join(root, entry))), null, 2));
  return build(root, spec.name, configFile, path.join(dir, "dist"));
}

/** `wrangler deploy --dry-run` of one config: the bundle written to `outdir`, its size. */
async function build(root: string, worker: string, configFile: string, outdir: string): Promise<BundleSize> {
  const wrangler = path.join(root, "node_modules", "wrangler", "bin", "wrangler.js");
  await run(process.execPath, [wrangler, "deploy", "--dry-run", "--outdir", outdir, "--config", configFile], {
    cwd: root,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_LOG: "error" },
    timeout: 120_000,
  });
  return { worker, ...bundleBytes(outdir) };
}

/**
 * SANDBOX_PROVIDER=cloudflare: the environment Workers that declare a sandbox, built with the Sandbox SDK, and the sandbox
 * Worker (infra/sandbox.ts) without its `containers` entry: building the image needs Docker, which the check does not.
 */
export async function checkCloudflareSandboxBundles(root: string, environments = sandboxEnvironments(root, discoverEnvironments(root))): Promise<BundleSize[]> {
  const worker = sandboxWorkerName("check");
  const specs = topology({ environments, modelBaseUrl: "https://vllm.invalid/v1", modelName: "model", cloudflareSandbox: { environments, worker } }).filter(
    (spec) => spec.environment,
  );
  const dir = path.join(root, ".edgegym", "wrangler", worker);
  mkdirSync(dir, { recursive: true });
  const { containers: _image, ...host } = sandboxWranglerConfig(root, dir, worker);
  const configFile = path.join(dir, "wrangler.json");
  writeFileSync(configFile, JSON.stringify(host, null, 2));
  return Promise.all([build(root, worker, configFile, path.join(dir, "dist")), ...specs.map((spec) => dryRun(root, spec))]);
}

/** Every Worker of the default deployment (all environments), two builds at a time. */
export async function checkBundles(root: string): Promise<BundleSize[]> {
  const specs = topology({ environments: discoverEnvironments(root), modelBaseUrl: "https://vllm.invalid/v1", modelName: "model" });
  const sizes: BundleSize[] = [];
  for (let i = 0; i < specs.length; i += 2) sizes.push(...(await Promise.all(specs.slice(i, i + 2).map((spec) => dryRun(root, spec)))));
  return sizes;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = await checkBundles(process.cwd());
  const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  for (const s of sizes) process.stdout.write(`${s.worker.padEnd(40)} ${kib(s.bytes).padStart(12)}  gzip ${kib(s.gzipBytes).padStart(10)}\n`);
  const over = sizes.filter((s) => s.gzipBytes > GZIP_LIMIT_BYTES);
  if (over.length) {
    process.stderr.write(`over the ${kib(GZIP_LIMIT_BYTES)} gzip limit: ${over.map((s) => s.worker).join(", ")}\n`);
    process.exitCode = 1;
  }
}

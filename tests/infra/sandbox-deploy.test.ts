// SANDBOX_PROVIDER=cloudflare in the deployment (issue 28): the resource graph with and without it (SST's components
// recorded), the sandbox Worker's wrangler config and image, and `wrangler deploy --dry-run` of the Workers it changes.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { environmentWorkerName } from "../../contracts/names.js";
import { checkCloudflareSandboxBundles, GZIP_LIMIT_BYTES } from "../../infra/check-bundles.js";
import { declaresSandbox } from "../../infra/sandbox.js";
import { PROJECT_ROOT } from "../../local/paths.js";
import { installRecorders, type Recorded } from "./recorder.js";

const INFRA = path.join(PROJECT_ROOT, "infra", "index.ts");

async function deploy(sandboxProvider?: string): Promise<{ created: Recorded[]; outputs: Record<string, unknown> }> {
  const created = installRecorders("dev");
  process.env.EDGEGYM_ENVIRONMENTS = "code_gen,math_with_code,example_multi_step";
  if (sandboxProvider) process.env.EDGEGYM_SANDBOX_PROVIDER = sandboxProvider;
  const infra = (await import(INFRA)) as { deploy(root: string): Promise<Record<string, unknown>> };
  return { created, outputs: await infra.deploy(PROJECT_ROOT) };
}

afterEach(() => {
  delete process.env.EDGEGYM_ENVIRONMENTS;
  delete process.env.EDGEGYM_SANDBOX_PROVIDER;
});

const component = (worker: string) =>
  worker
    .split("-")
    .map((p) => p[0]!.toUpperCase() + p.slice(1))
    .join("");
function worker(created: Recorded[], environment: string): Recorded {
  const found = created.find((r) => r.kind === "Worker" && r.name === component(environmentWorkerName(environment)));
  if (!found) throw new Error(`no Worker for ${environment}`);
  return found;
}
const sandboxBinding = (w: Recorded) => w.bindings?.find((b) => b.name === "SANDBOX");
const handlerSource = (w: Recorded) => readFileSync(path.join(PROJECT_ROOT, String(w.args.handler)), "utf8");

describe("EDGEGYM_SANDBOX_PROVIDER=cloudflare in the SST deployment", () => {
  it("binds the sandbox Worker's Sandbox class in each environment that declares a sandbox, and only there", async () => {
    const { created, outputs } = await deploy("cloudflare");
    for (const name of ["code_gen", "math_with_code"]) {
      const w = worker(created, name);
      expect(sandboxBinding(w)).toEqual({ type: "durable_object_namespace", name: "SANDBOX", className: "Sandbox", scriptName: "edgegym-sandbox-dev" });
      expect(w.args.environment).toMatchObject({ SANDBOX_PROVIDER: "cloudflare", SANDBOX_BINDING: "SANDBOX" });
      // The Worker's entry registers the Cloudflare provider; its own session class is still its only migration.
      expect(handlerSource(w)).toContain("useCloudflareSandboxes(cloudflareSandboxProvider);");
      expect(w.args.migrations).toEqual([{ tag: "v1", newSqliteClasses: ["EnvironmentSession"] }]);
    }
    const plain = worker(created, "example_multi_step");
    expect(sandboxBinding(plain)).toBeUndefined();
    expect(plain.args.environment).not.toHaveProperty("SANDBOX_PROVIDER");
    expect(handlerSource(plain)).not.toContain("cloudflare");
    expect(outputs.sandboxContainer).toBe("npx wrangler deploy --config .edgegym/containers/sandbox/wrangler.json");
  });

  it("writes the sandbox Worker's config: the container on the SDK's image (its version the lockfile's), its Durable Object, migration", async () => {
    await deploy("cloudflare");
    const dir = path.join(PROJECT_ROOT, ".edgegym", "containers", "sandbox");
    const written = JSON.parse(readFileSync(path.join(dir, "wrangler.json"), "utf8"));
    expect(written).toMatchObject({
      name: "edgegym-sandbox-dev",
      compatibility_flags: ["nodejs_compat"],
      durable_objects: { bindings: [{ name: "SANDBOX", class_name: "Sandbox" }] },
      migrations: [{ tag: "v1", new_sqlite_classes: ["Sandbox"] }],
    });
    expect(written.containers).toHaveLength(1);
    expect(written.containers[0]).toMatchObject({ class_name: "Sandbox", instance_type: "standard-1" });
    const host = readFileSync(path.resolve(dir, written.main), "utf8");
    expect(host).toContain('export { Sandbox } from "@cloudflare/sandbox";');
    const dockerfile = readFileSync(path.resolve(dir, written.containers[0].image), "utf8");
    const lock = JSON.parse(readFileSync(path.join(PROJECT_ROOT, "package-lock.json"), "utf8"));
    const sdkVersion = lock.packages["node_modules/@cloudflare/sandbox"].version;
    expect(dockerfile).toMatch(new RegExp(`^FROM docker\\.io/cloudflare/sandbox:${sdkVersion.replaceAll(".", "\\.")}-python$`, "m"));
    expect(dockerfile).toMatch(/pip install --no-cache-dir numpy scipy pandas/);
  });

  it("without it (or local/remote): no Sandbox binding, no sandbox Worker; an unknown provider is refused by name", async () => {
    for (const choice of [undefined, "local", "remote"]) {
      const { created, outputs } = await deploy(choice);
      for (const w of created.filter((r) => r.kind === "Worker")) expect(sandboxBinding(w), `${w.name} (${choice})`).toBeUndefined();
      expect(outputs.sandboxContainer).toBeUndefined();
      expect(handlerSource(worker(created, "code_gen"))).not.toContain("cloudflare");
    }
    await expect(deploy("docker")).rejects.toThrow('EDGEGYM_SANDBOX_PROVIDER: "docker" is none of local, remote, cloudflare');
  });

  it("finds the environments that declare a sandbox from their source", () => {
    expect(declaresSandbox(PROJECT_ROOT, "code_gen")).toBe(true);
    expect(declaresSandbox(PROJECT_ROOT, "math_with_code")).toBe(true);
    expect(declaresSandbox(PROJECT_ROOT, "example_multi_step")).toBe(false);
    expect(declaresSandbox(PROJECT_ROOT, "no_such_environment")).toBe(false);
  });
});

describe("wrangler deploy --dry-run with SANDBOX_PROVIDER=cloudflare", () => {
  it("builds code_gen with the Sandbox SDK and the sandbox Worker exporting Sandbox, each under the size limit", { timeout: 300_000 }, async () => {
    const sizes = await checkCloudflareSandboxBundles(PROJECT_ROOT, ["code_gen"]);
    expect(sizes.map((s) => s.worker).sort()).toEqual(["edgegym-sandbox-check", "resources-code-gen"]);
    for (const size of sizes) expect(size.gzipBytes, size.worker).toBeLessThan(GZIP_LIMIT_BYTES);
    const wrangler = path.join(PROJECT_ROOT, ".edgegym", "wrangler");
    const env = readFileSync(path.join(wrangler, "resources-code-gen.cloudflare-sandbox", "dist", "resources-code-gen.cloudflare-sandbox.js"), "utf8");
    expect(env).toContain("getSandbox");
    expect(env).toContain("useCloudflareSandboxes(cloudflareSandboxProvider)");
    const host = readFileSync(path.join(wrangler, "edgegym-sandbox-check", "dist", "cloudflare-host.js"), "utf8");
    expect(host).toMatch(/export \{\s*Sandbox,\s*cloudflare_host_default as default\s*\}/);
  });
});

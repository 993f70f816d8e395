// The SST deployment with a remote environment (edgegym.remote.json): its own Worker from the generated entry, bound by
// the gateway, agent and writer like a native one, its auth secret an SST secret; evaluated offline with recorders.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { lambdaRemotes } from "../../aws/remotes.js";
import { environmentBinding, environmentWorkerName } from "../../contracts/names.js";
import { PROJECT_ROOT } from "../../local/paths.js";
import { installRecorders, type Recorded } from "../infra/recorder.js";

// Imported by path: infra/ is typed against SST's platform globals, checked by tsconfig.sst.json.
const INFRA = path.join(PROJECT_ROOT, "infra", "index.ts");
/** infra/functions.ts componentName: "resources-stand-in" → "ResourcesStandIn". */
const componentName = (worker: string) =>
  worker
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join("");

async function deployWith(config: unknown): Promise<Recorded[]> {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "edgegym-sst-")), "remote.json");
  writeFileSync(file, JSON.stringify(config));
  const created = installRecorders();
  process.env.EDGEGYM_ENVIRONMENTS = "example_multi_step";
  process.env.EDGEGYM_REMOTE_CONFIG = file;
  const infra = (await import(INFRA)) as { deploy(root: string): Promise<Record<string, unknown>> };
  await infra.deploy(PROJECT_ROOT);
  return created;
}

afterEach(() => {
  delete process.env.EDGEGYM_BACKEND;
  delete process.env.EDGEGYM_ENVIRONMENTS;
  delete process.env.EDGEGYM_REMOTE_CONFIG;
});

const worker = (created: Recorded[], name: string) => created.find((r) => r.kind === "Worker" && r.name === name)!;
const binding = (w: Recorded, name: string) => w.bindings?.find((b) => b.name === name);

describe("a remote environment in the SST deployment", () => {
  it("is one Worker from the generated entry, bound like a native environment, its secret an SST secret", async () => {
    const created = await deployWith({
      remotes: [{ name: "stand_in", baseUrls: ["https://gym.example.com"], auth: { kind: "bearer", secret: "STAND_IN_TOKEN" } }],
    });
    const name = componentName(environmentWorkerName("stand_in"));
    const remote = worker(created, name);
    expect(remote).toBeDefined();
    expect(remote.args.handler).toBe(path.join(".edgegym", "entries", `${environmentWorkerName("stand_in")}.remote.ts`));
    expect(binding(remote, "STAND_IN_TOKEN")).toEqual({ type: "secret_text", name: "STAND_IN_TOKEN", text: "secret:RemoteStandInToken" });
    expect(binding(remote, "SESSION_SECRET")).toMatchObject({ type: "secret_text" });
    expect(binding(remote, "SESSIONS")).toEqual({ type: "durable_object_namespace", name: "SESSIONS", className: "EnvironmentSession" });
    expect(created.filter((r) => r.kind === "Secret").map((r) => r.name)).toContain("RemoteStandInToken");
    for (const w of ["Gateway", "Agent", "Writer"]) {
      expect(binding(worker(created, w), environmentBinding("stand_in"))).toMatchObject({ type: "service", service: `script:${name}` });
    }
    expect((worker(created, "Gateway").args.environment as Record<string, string>).ENVIRONMENTS).toBe("example_multi_step,stand_in");
    // The entry holds the configuration and the secret's name, never a value.
    const entry = readFileSync(path.join(PROJECT_ROOT, remote.args.handler as string), "utf8");
    expect(entry).toContain('"baseUrls":["https://gym.example.com"]');
    expect(entry).toContain("export class EnvironmentEntrypoint extends remote.RemoteEntrypoint");
    expect(entry).toContain("export class EnvironmentSession extends remote.RemoteSessionObject");
  });

  it("refuses a remote named like a native environment, naming the file and field", async () => {
    await expect(deployWith({ remotes: [{ name: "example_multi_step", baseUrls: ["https://gym.example.com"] }] })).rejects.toThrow(
      /remote\.json: remotes\[0\]\.name: "example_multi_step" is a native environment's name/,
    );
  });
});

describe("a remote environment on the AWS side", () => {
  it("reaches the agent Lambda as EDGEGYM_REMOTES with its secret as an env var, the secret declared once for both sides", async () => {
    process.env.EDGEGYM_BACKEND = "both";
    const created = await deployWith({
      remotes: [{ name: "stand_in", baseUrls: ["https://gym.example.com"], auth: { kind: "bearer", secret: "STAND_IN_TOKEN" } }],
    });
    const agent = created.find((r) => r.kind === "aws.Function")!;
    const environment = agent.args.environment as Record<string, string>;
    expect(environment.STAND_IN_TOKEN).toBe("secret:RemoteStandInToken");
    const [remote, ...others] = lambdaRemotes(environment);
    expect(others).toEqual([]);
    expect(remote).toMatchObject({ name: "stand_in", baseUrls: ["https://gym.example.com"], auth: { kind: "bearer", secret: "STAND_IN_TOKEN" } });
    expect(environment.EDGEGYM_REMOTES).not.toContain("secret:");
    expect(created.filter((r) => r.kind === "Secret" && r.name === "RemoteStandInToken")).toHaveLength(1);
  });

  it("leaves EDGEGYM_REMOTES unset without a remote file", async () => {
    process.env.EDGEGYM_BACKEND = "aws";
    const created = installRecorders();
    const infra = (await import(INFRA)) as { deploy(root: string): Promise<Record<string, unknown>> };
    await infra.deploy(PROJECT_ROOT);
    const environment = created.find((r) => r.kind === "aws.Function")!.args.environment as Record<string, string>;
    expect(environment.EDGEGYM_REMOTES).toBeUndefined();
  });
});

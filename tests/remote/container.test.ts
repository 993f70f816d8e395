// A NeMo Gym resources server on Cloudflare Containers: the SST deployment writes its wrangler config (container, Durable
// Object, Dockerfile at NeMo Gym's pinned commit) and outputs the command that deploys it; its Worker checks the token.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { PROJECT_ROOT } from "../../local/paths.js";
import { installRecorders } from "../infra/recorder.js";

vi.mock("cloudflare:workers", () => ({ DurableObject: class {} }));

const INFRA = path.join(PROJECT_ROOT, "infra", "index.ts");

async function deploy(): Promise<Record<string, unknown>> {
  installRecorders();
  process.env.EDGEGYM_ENVIRONMENTS = "example_multi_step";
  const infra = (await import(INFRA)) as { deploy(root: string): Promise<Record<string, unknown>> };
  return infra.deploy(PROJECT_ROOT);
}

afterEach(() => {
  delete process.env.EDGEGYM_ENVIRONMENTS;
  delete process.env.EDGEGYM_NEMO_GYM_CONTAINER;
});

describe("EDGEGYM_NEMO_GYM_CONTAINER in the SST deployment", () => {
  it("writes the container's wrangler config, its Durable Object bound, and outputs the deploy command", async () => {
    process.env.EDGEGYM_NEMO_GYM_CONTAINER = "example_session_state_mgmt";
    const outputs = await deploy();
    const config = path.join(".edgegym", "containers", "example_session_state_mgmt", "wrangler.json");
    expect(outputs.nemoGymContainer).toBe(`npx wrangler deploy --config ${config} && npx wrangler secret put NEMO_GYM_TOKEN --config ${config}`);
    const dir = path.join(PROJECT_ROOT, path.dirname(config));
    const written = JSON.parse(readFileSync(path.join(PROJECT_ROOT, config), "utf8"));
    expect(written.name).toBe("edgegym-nemo-gym-example-session-state-mgmt");
    expect(written.durable_objects).toEqual({ bindings: [{ name: "SERVER", class_name: "NemoGymServer" }] });
    expect(written.migrations).toEqual([{ tag: "v1", new_sqlite_classes: ["NemoGymServer"] }]);
    const [container, ...others] = written.containers;
    expect(others).toEqual([]);
    expect(container).toMatchObject({
      class_name: "NemoGymServer",
      max_instances: 1,
      image_vars: { NEMO_GYM_COMMIT: "07d6b0d07b22fcf530b4c211dae2ee23100428e4", RESOURCES_SERVER: "example_session_state_mgmt", DOMAIN: "agent" },
    });
    // Both paths resolve from the config's folder to files of the project.
    expect(existsSync(path.resolve(dir, written.main))).toBe(true);
    const dockerfile = readFileSync(path.resolve(dir, container.image), "utf8");
    expect(dockerfile).toContain("ARG NEMO_GYM_COMMIT=07d6b0d07b22fcf530b4c211dae2ee23100428e4");
    expect(dockerfile).toContain('CMD ["ng_run", "+config_paths=[server_only.yaml]"]');
    expect(dockerfile).toContain("port: 8000");
  });

  it("writes nothing without it, and refuses a name that is no resources server folder", async () => {
    expect((await deploy()).nemoGymContainer).toBeUndefined();
    process.env.EDGEGYM_NEMO_GYM_CONTAINER = "../etc";
    await expect(deploy()).rejects.toThrow(/EDGEGYM_NEMO_GYM_CONTAINER: "\.\.\/etc" is not a NeMo Gym resources server's folder name/);
  });
});

describe("the container's Worker", () => {
  const stub = () => {
    const seen: Request[] = [];
    const namespace = {
      idFromName: (name: string) => name,
      get: () => ({
        fetch: async (request: Request) => {
          seen.push(request);
          return new Response("from the container");
        },
      }),
    };
    return { seen, env: { NEMO_GYM_TOKEN: "t0ken", SERVER: namespace as unknown as DurableObjectNamespace } };
  };

  it("refuses a request without the token (401), and forwards one with it, the token removed", async () => {
    const { default: worker } = await import("../../environments/sdk/remote/container-worker.js");
    const { seen, env } = stub();
    const denied = await worker.fetch(new Request("https://c/seed_session", { method: "POST", headers: { authorization: "Bearer wrong" } }), env);
    expect(denied.status).toBe(401);
    const noToken = await worker.fetch(new Request("https://c/seed_session"), { ...env, NEMO_GYM_TOKEN: undefined });
    expect(noToken.status).toBe(401);
    const ok = await worker.fetch(new Request("https://c/seed_session", { method: "POST", headers: { authorization: "Bearer t0ken", cookie: "s=1" } }), env);
    expect(await ok.text()).toBe("from the container");
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers.get("authorization")).toBeNull();
    expect(seen[0]!.headers.get("cookie")).toBe("s=1");
  });

  it("starts the container when it is not running, forwards to port 8000, and answers 503 while it boots", async () => {
    const { forwardToContainer } = await import("../../environments/sdk/remote/container-worker.js");
    const calls: string[] = [];
    let up = false;
    const container = {
      get running() {
        return up;
      },
      start: () => {
        calls.push("start");
      },
      getTcpPort: (port: number) => {
        calls.push(`port ${port}`);
        return { fetch: async () => (up ? new Response("ok") : Promise.reject(new Error("connection refused"))) } as unknown as Fetcher;
      },
    };
    const booting = await forwardToContainer(container, new Request("https://c/verify"));
    expect(booting.status).toBe(503);
    expect(booting.headers.get("retry-after")).toBe("5");
    up = true;
    expect(await (await forwardToContainer(container, new Request("https://c/verify"))).text()).toBe("ok");
    expect(calls).toEqual(["start", "port 8000", "port 8000"]);
  });
});

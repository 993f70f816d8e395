// The emulation starts the sandbox service for an environment that declares one, and its Workers reach it (workerd).
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EnvironmentVars, parseVars } from "../../contracts/config.js";
import { SESSION_HEADER } from "../../contracts/names.js";
import { topology } from "../../infra/topology.js";
import type { Local } from "../../local/emulation.js";
import { PROJECT_ROOT } from "../../local/paths.js";
import { anyDeclaresSandbox, declaresSandbox } from "../../local/sandbox/emulated.js";
import { postJson, startTestLocal } from "../helpers/local.js";
import { SETUP_TIMEOUT_MS } from "./service-harness.js";

const NAME = "sandbox_probe";
const probe = { name: NAME, entry: path.relative(PROJECT_ROOT, path.join(import.meta.dirname, "emulated-environment.ts")), sandbox: true };
const RESPONSE = { id: "resp", created_at: 0, model: "m", object: "response", output: [] };
const route = (local: Local, tail: string) => `${local.url}/v1/environments/${NAME}/${tail}`;

describe("which environments declare a sandbox", () => {
  it("reads each environment's definition: string_match declares none, a test's environment marked sandbox does", async () => {
    expect(await declaresSandbox("string_match")).toBe(false);
    expect(await anyDeclaresSandbox(["string_match", "mcqa"], [])).toBe(false);
    expect(await anyDeclaresSandbox(["string_match"], [probe])).toBe(true);
  });
});

describe("the environment Worker's sandbox variables", () => {
  const base = { SESSION_SECRET: "x".repeat(32) };
  it("default to the local provider and accept a loopback SANDBOX_URL", () => {
    expect(parseVars(EnvironmentVars, base, "resources-x")).toMatchObject({ SANDBOX_PROVIDER: "local" });
    expect(parseVars(EnvironmentVars, { ...base, SANDBOX_URL: "http://127.0.0.1:9" }, "resources-x").SANDBOX_URL).toBe("http://127.0.0.1:9");
  });
  it("refuse an unknown provider or a URL that is none, naming the Worker and the variable", () => {
    expect(() => parseVars(EnvironmentVars, { ...base, SANDBOX_PROVIDER: "docker" }, "resources-x")).toThrow(/resources-x: SANDBOX_PROVIDER must be/);
    expect(() => parseVars(EnvironmentVars, { ...base, SANDBOX_URL: "not a url" }, "resources-x")).toThrow(/SANDBOX_URL must be a URL, got "not a url"/);
  });
  it("are set by the topology on every environment Worker when a sandbox service is given", () => {
    const specs = topology({ environments: ["a"], modelBaseUrl: "http://m/v1", modelName: "m", sandboxUrl: "http://127.0.0.1:5" });
    expect(specs.find((spec) => spec.kind === "environment")?.vars).toMatchObject({ SANDBOX_PROVIDER: "local", SANDBOX_URL: "http://127.0.0.1:5" });
    const none = topology({ environments: ["a"], modelBaseUrl: "http://m/v1", modelName: "m" });
    expect(none.find((spec) => spec.kind === "environment")?.vars.SANDBOX_URL).toBeUndefined();
  });
});

describe("an emulation without a sandboxed environment", () => {
  it("starts no sandbox service", async () => {
    const local = await startTestLocal({ environments: ["string_match"] });
    try {
      expect(local.sandbox).toBeUndefined();
    } finally {
      await local.stop();
    }
  });
});

describe("an environment using ctx.sandbox, in workerd", () => {
  let local: Local;
  let boxes = "";
  beforeAll(async () => {
    boxes = mkdtempSync(path.join(tmpdir(), "edgegym-emulated-sandbox-"));
    // A 2-second session lifetime: the session object's alarm destroys the sandbox soon after the last use.
    const extraEnvironments = [{ ...probe, vars: { SESSION_TTL_SECONDS: "2" } }];
    local = await startTestLocal({ environments: [], extraEnvironments, sandbox: { dir: boxes } });
  }, SETUP_TIMEOUT_MS);
  afterAll(async () => {
    await local?.stop();
    if (boxes) rmSync(boxes, { recursive: true, force: true });
  });

  it("runs the tool's code in the session's sandbox, keeps its files for verify, and the alarm destroys it", async () => {
    expect(local.sandbox?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const seeded = await postJson(route(local, "seed_session"), {});
    expect(seeded.status).toBe(200);
    const session = { [SESSION_HEADER]: seeded.headers.get(SESSION_HEADER) ?? "" };
    const ran = await postJson(route(local, "run_python"), { code: "open('answer.txt','w').write('42'); print(6 * 7)" }, session);
    expect(ran.status).toBe(200);
    expect(ran.body).toEqual({ stdout: "42\n", stderr: "", exit_code: 0, stopped: null });
    expect(local.sandbox?.store.size).toBe(1);
    expect(readdirSync(boxes)).toHaveLength(1);
    const verified = await postJson(route(local, "verify"), { responses_create_params: { input: "q" }, response: RESPONSE, expected: "42" }, session);
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    expect(verified.body).toMatchObject({ reward: 1, seen: "42" });
    // The session expires (2 s after its last use, at most 3): its alarm destroys the sandbox and its directory.
    const deadline = Date.now() + 15_000;
    while (local.sandbox?.store.size !== 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
    expect(local.sandbox?.store.size).toBe(0);
    expect(readdirSync(boxes)).toEqual([]);
  }, 60_000);

  it("a loop that never ends is stopped by the sandbox's limit, and the tool answers", async () => {
    const ran = await postJson(route(local, "run_python"), { code: "while True: pass" });
    expect(ran.status).toBe(200);
    expect(ran.body.stopped).toMatch(/^(wall_timeout|cpu_timeout)$/);
    expect(ran.body.exit_code).toBeNull();
  }, 60_000);

  it("stop() stops the service it started: its URL no longer answers", async () => {
    const other = await startTestLocal({ environments: [], extraEnvironments: [probe], sandbox: { dir: boxes } });
    const url = other.sandbox?.url ?? "";
    expect((await fetch(`${url}/health`)).status).toBe(200);
    await other.stop();
    await expect(fetch(`${url}/health`)).rejects.toThrow();
  }, 60_000);
});

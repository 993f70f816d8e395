// ctx.sandbox as a tool sees it: made by toolContext over the local service, one per session, its record kept, expiry destroys.
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { SandboxRecord } from "../../contracts/sandbox.js";
import { toolContext } from "../../environments/sdk/context.js";
import { defineEnvironment } from "../../environments/sdk/define.js";
import { SandboxError } from "../../environments/sdk/sandbox/errors.js";
import { SandboxConfigError, sandboxProvider } from "../../environments/sdk/sandbox/provider-config.js";
import { destroyRecorded, type SandboxRecords } from "../../environments/sdk/sandbox/session-sandbox.js";
import type { ToolContext } from "../../environments/sdk/types.js";
import { type Harness, python, SETUP_TIMEOUT_MS, startHarness } from "./service-harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
}, SETUP_TIMEOUT_MS);
afterAll(async () => {
  await h?.stop();
});

/** A session's record store in memory, as the session's Durable Object keeps it in storage. */
function memoryRecords(): SandboxRecords & { value?: SandboxRecord; puts: number } {
  const store: SandboxRecords & { value?: SandboxRecord; puts: number } = {
    puts: 0,
    get: async () => store.value,
    put: async (record) => {
      store.value = record;
      store.puts++;
    },
    delete: async () => {
      store.value = undefined;
    },
  };
  return store;
}

function contextFor(records: SandboxRecords, url = h.service.url): ToolContext<unknown> {
  return toolContext({
    sessionId: "s1",
    state: { get: async () => undefined, set: async () => {} },
    signal: () => AbortSignal.timeout(60_000),
    models: { judge: { fetch: () => Promise.reject(new Error("no judge here")) } as never },
    sandbox: { spec: { runtime: "python", limits: { wallMs: 10_000 } }, provider: () => sandboxProvider({ SANDBOX_URL: url }), records },
  });
}

describe("ctx.sandbox", () => {
  it("is created on first use, its handle recorded before the call returns, and reused by the session's next call", async () => {
    const records = memoryRecords();
    const ctx = contextFor(records);
    expect(records.value).toBeUndefined();
    await ctx.sandbox?.writeFile("a.txt", "kept between calls");
    const id = records.value?.handle.id;
    expect(id).toBeTruthy();
    expect(existsSync(path.join(h.boxes, id ?? "none"))).toBe(true);
    const again = await contextFor(records).sandbox?.run(python("print(open('a.txt').read())"));
    expect(again?.stdout).toBe("kept between calls\n");
    expect(records.value?.handle.id).toBe(id);
    await destroyRecorded(sandboxProvider({ SANDBOX_URL: h.service.url }), records);
    expect(records.value).toBeUndefined();
    expect(existsSync(path.join(h.boxes, id ?? "none"))).toBe(false);
  });

  it("runs on a fresh sandbox when the provider lost the old one; a kept kernel's lost state is an error the caller sees", async () => {
    const records = memoryRecords();
    const ctx = contextFor(records);
    const kernel = await ctx.sandbox?.keep("python", ["python", path.resolve("local/sandbox/driver/kernel.py")]);
    expect((await kernel?.send("x = 5\nx"))?.stdout).toBe("5\n");
    const lost = records.value?.handle;
    if (!lost) throw new Error("no record");
    await h.provider.destroy(lost); // the provider loses it (TTL, crash), not the session
    const run = await ctx.sandbox?.run(python("import os; print(os.listdir('.'))"));
    expect(run?.stdout).toBe("[]\n");
    expect(records.value?.handle.id).not.toBe(lost.id);
    const error = await kernel?.send("x").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxError);
    expect(error).toMatchObject({ code: "sandbox_gone" });
    await ctx.sandbox?.destroy();
    expect(records.value).toBeUndefined();
  });

  it("a provider that does not answer is infrastructure (sandbox_create_failed), not a program's failure", async () => {
    const ctx = contextFor(memoryRecords(), "http://127.0.0.1:9");
    await expect(ctx.sandbox?.run(python("print(1)"))).rejects.toMatchObject({ name: "SandboxError", code: "sandbox_create_failed" });
  });
});

describe("declaring a sandbox", () => {
  it("makes an environment stateful and carries its spec", () => {
    const spec = { runtime: "python", limits: { cpuSeconds: 2 } };
    const environment = defineEnvironment({ name: "with_sandbox", sandbox: spec, tools: {}, verify: () => ({ reward: 1 }) });
    expect(environment.stateful).toBe(true);
    expect(environment.sandbox).toEqual(spec);
    const plain = defineEnvironment({ name: "without", tools: {}, task: z.object({}), verify: () => ({ reward: 1 }) });
    expect(plain.stateful).toBe(false);
    expect(plain.sandbox).toBeUndefined();
  });

  it("the provider comes from SANDBOX_PROVIDER / SANDBOX_URL, with errors naming the variable", () => {
    expect(() => sandboxProvider({})).toThrow(new SandboxConfigError("SANDBOX_URL: is not set (the local sandbox service's base URL)"));
    expect(() => sandboxProvider({ SANDBOX_PROVIDER: "docker", SANDBOX_URL: "http://127.0.0.1:1" })).toThrow(/^SANDBOX_PROVIDER: /);
    expect(() => sandboxProvider({ SANDBOX_PROVIDER: "cloudflare" })).toThrow(/cloudflare, but this Worker was built without the Cloudflare provider/);
    expect(sandboxProvider({ SANDBOX_PROVIDER: "remote", SANDBOX_URL: "http://127.0.0.1:1", SANDBOX_TOKEN: "t" }).kind).toBe("remote");
  });
});

// The AWS path's in-process model (aws/model.ts) with a job's own policy model: checked as on Cloudflare (POLICY_URL_ALLOW,
// the address policy, names resolved by the OS before connecting); the operator's configured upstream is not checked.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inProcessModel, policyVars } from "../../aws/model.js";
import { type Simulator, startSimulator } from "../../local/simulator/server.js";
import type { ResponsesCreateParams } from "../../protocol/index.js";

let simulator: Simulator;
let trap: Server;
let trapPort = 0;
let connections = 0;

beforeAll(async () => {
  simulator = await startSimulator({ model: "the-policy" });
  trap = createServer((_, response) => response.end("{}"));
  trap.on("connection", () => connections++);
  await new Promise<void>((resolve) => trap.listen(0, "127.0.0.1", resolve));
  trapPort = (trap.address() as AddressInfo).port;
});

afterAll(async () => {
  await simulator?.close();
  await new Promise((resolve) => trap?.close(resolve));
});

const params = { input: "hello" } as ResponsesCreateParams;

describe("inProcessModel with a job's policy model", () => {
  it("calls an allowed policy URL, refuses others with 403 before connecting, and leaves the configured upstream unchecked", async () => {
    const simPort = new URL(simulator.url).port;
    const model = inProcessModel(
      policyVars({
        EDGEGYM_MODEL_URL: `${simulator.url}/v1`,
        EDGEGYM_MODEL: "the-policy",
        EDGEGYM_POLICY_URL_ALLOW: `127.0.0.1:${simPort},localhost:${trapPort}`,
      }),
    );
    // The operator's own upstream (loopback here) is theirs: no allow-list applies to it.
    expect((await model.respond(params)).ok).toBe(true);
    const allowed = await model.respond(params, { policy: { baseUrls: [`http://127.0.0.1:${simPort}/v1`], model: "the-policy" } });
    expect(allowed.ok).toBe(true);
    for (const url of [`http://127.0.0.1:${trapPort}/v1`, `http://0x7f000001:${trapPort}/v1`, `http://[::ffff:127.0.0.1]:${trapPort}/v1`]) {
      const refused = await model.respond(params, { policy: { baseUrls: [url], model: "the-policy" } });
      expect(refused).toMatchObject({ ok: false, error: { status: 403, code: "policy_url_not_allowed" } });
    }
    const named = await model.respond(params, { policy: { baseUrls: [`http://localhost:${trapPort}/v1`], model: "the-policy" } });
    expect(named).toMatchObject({
      ok: false,
      error: { status: 403, code: "policy_url_not_allowed", message: expect.stringContaining("resolves to a loopback address") },
    });
    expect(connections).toBe(0);
  });

  it("allows no policy URL when POLICY_URL_ALLOW is unset", async () => {
    const model = inProcessModel(policyVars({ EDGEGYM_MODEL_URL: `${simulator.url}/v1`, EDGEGYM_MODEL: "the-policy" }));
    const refused = await model.respond(params, { policy: { baseUrls: [`${simulator.url}/v1`], model: "the-policy" } });
    expect(refused).toMatchObject({
      ok: false,
      error: { code: "policy_url_not_allowed", message: expect.stringContaining("no caller-chosen URL is allowed") },
    });
  });
});

// An environment Worker's generated entry subclasses the SDK's top-level RPC classes: the session Durable Object answers
// its one RPC method, perform, and nothing of its inner workings (a helper, a field) is callable over RPC.
import { Miniflare } from "miniflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionRpc } from "../../contracts/rpc.js";
import { environmentEntrySource } from "../../infra/environments.js";
import { topology } from "../../infra/topology.js";
import { buildWorkers } from "../../local/build.js";
import { workerOptions } from "../../local/emulation.js";

const NAME = "workplace_assistant";
let miniflare: Miniflare;

beforeAll(async () => {
  const spec = topology({ environments: [NAME], modelBaseUrl: "http://model.invalid/v1", modelName: "m" }).find((s) => s.environment === NAME)!;
  const bundle = (await buildWorkers([spec])).get(spec.name)!;
  const worker = workerOptions({ ...spec, services: {}, vars: {} }, bundle, { SESSION_SECRET: "a-test-secret-of-at-least-32-characters" });
  miniflare = new Miniflare({ ...worker, cf: false });
  await miniflare.ready;
}, 60_000);
afterAll(async () => {
  await miniflare?.dispose();
});

describe("the generated entry", () => {
  it("names its environment in subclasses of the SDK's EnvironmentEntrypoint and EnvironmentSession", () => {
    const source = environmentEntrySource(NAME, "../../environments");
    expect(source).toContain("export class EnvironmentEntrypoint extends sdk.EnvironmentEntrypoint {");
    expect(source).toContain("export class EnvironmentSession extends sdk.EnvironmentSession {");
    expect(source.match(/protected readonly environment = served;/g)).toHaveLength(2);
  });
});

describe("the session Durable Object over RPC", () => {
  async function session(name: string) {
    const namespace = await miniflare.getDurableObjectNamespace("SESSIONS");
    return namespace.get(namespace.idFromName(name)) as unknown as SessionRpc & Record<string, () => Promise<unknown>>;
  }

  it("perform runs the environment's operation (a session never opened is refused as expired, 410)", async () => {
    const outcome = await (await session("never-opened")).perform({ kind: "verify" }, {}, "never-opened", true, false);
    expect(outcome.status).toBe(410);
    expect(outcome.body).toMatchObject({ error: { code: "session_expired" } });
  });

  it("its clean-up helper is not an RPC method (it was, as a TypeScript-private method)", async () => {
    const stub = await session("helpers");
    await expect(async () => stub.keepAlive!()).rejects.toThrow('The RPC receiver does not implement the method "keepAlive"');
  });
});

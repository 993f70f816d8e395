// Two vLLM upstreams behind the proxy (in workerd): session affinity, skipping an upstream that keeps failing, timeouts.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { affinityIndex } from "../../functions/model-proxy/upstream.js";
import type { Local } from "../../local/emulation.js";
import { startSimulator, type Simulator } from "../../local/simulator/server.js";
import { postJson, startTestLocal } from "../helpers/local.js";

let sims: Simulator[];
let urls: string[];
let local: Local;

beforeAll(async () => {
  sims = [await startSimulator(), await startSimulator()];
  urls = sims.map((sim) => `${sim.url}/v1`);
  local = await startTestLocal({
    environments: [],
    modelUrls: urls,
    model: "edgegym-sim",
    vars: { modelProxy: { MODEL_TIMEOUT_MS: "300", MODEL_MAX_ATTEMPTS: "2", MODEL_UNHEALTHY_MS: "800", MODEL_RETRY_BASE_MS: "5" } },
  });
});
afterAll(async () => {
  await local?.stop();
  for (const sim of sims ?? []) await sim.close();
});
beforeEach(() => {
  for (const sim of sims) {
    sim.reset();
    sim.configure({ faults: {} });
  }
});

const turn = (session: string) => postJson(`${local.url}/v1/responses`, { input: "hi" }, { "x-session-id": session });

/** Session ids whose affinity is the given upstream. */
async function sessionsOn(index: number, count: number): Promise<string[]> {
  const found: string[] = [];
  while (found.length < count) {
    const session = crypto.randomUUID();
    if ((await affinityIndex(session, urls.length)) === index) found.push(session);
  }
  return found;
}

describe("a pool of two upstreams", () => {
  it("every turn of a session goes to the same upstream, the one its id hashes to", async () => {
    const sessions = [...(await sessionsOn(0, 3)), ...(await sessionsOn(1, 3))];
    for (let round = 0; round < 3; round++) {
      for (const session of sessions) {
        const answer = await turn(session);
        expect(answer.status).toBe(200);
        // The upstream's index in the pool, never its URL.
        expect(answer.headers.get("x-edgegym-upstream")).toBe(String(await affinityIndex(session, 2)));
      }
    }
    expect(sims.map((sim) => sim.requests.length)).toEqual([9, 9]);
  });

  it("an upstream that drops connections: its sessions fail over at once, then it is skipped until it may have recovered", async () => {
    sims[0]!.configure({ faults: { dropRate: 1 } });
    const [a, b, c] = await sessionsOn(0, 3);
    // The first two turns try upstream 0, fail, and move to upstream 1 without waiting.
    for (const session of [a!, b!]) {
      const answer = await turn(session);
      expect(answer.status).toBe(200);
      expect([answer.headers.get("x-edgegym-upstream"), answer.headers.get("x-edgegym-attempts")]).toEqual(["1", "2"]);
    }
    // Two failures in a row: upstream 0 is skipped, not tried.
    const skipped = await turn(c!);
    expect([skipped.headers.get("x-edgegym-upstream"), skipped.headers.get("x-edgegym-attempts")]).toEqual(["1", "1"]);
    expect(sims[0]!.requests).toHaveLength(2);

    // Healed, and after MODEL_UNHEALTHY_MS, it has its sessions back.
    sims[0]!.configure({ faults: {} });
    await new Promise((resolve) => setTimeout(resolve, 900));
    const back = await turn(c!);
    expect([back.headers.get("x-edgegym-upstream"), back.headers.get("x-edgegym-attempts")]).toEqual(["0", "1"]);
  });

  it("a slow upstream times out: a bounded wait, then a 504 naming it", async () => {
    for (const sim of sims) sim.script({ content: "late", delay_ms: 3000 });
    const [session] = await sessionsOn(0, 1);
    const started = performance.now();
    const answer = await turn(session!);
    const elapsed = performance.now() - started;
    expect(answer.status).toBe(504);
    expect(answer.body.error.code).toBe("upstream_timeout");
    expect(answer.body.error.message).toMatch(/did not answer within 300 ms, 2 attempts/);
    expect(answer.body.error.message).toContain("upstream #1");
    for (const url of urls) expect(JSON.stringify(answer.body)).not.toContain(new URL(url).host);
    // Two attempts of 300 ms, on two upstreams: no backoff, far from the 3 s the upstreams would take.
    expect(elapsed).toBeLessThan(2500);
  });
});

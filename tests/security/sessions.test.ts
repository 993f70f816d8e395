// Session ids that cannot be forged: minted by the environment, signed over rollout and token, checked on every call;
// forged, foreign (another token's, another rollout's) and expired ids are refused, and an expired session's state is gone.
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { EnvironmentBindings } from "../../environments/sdk/bindings.js";
import type { SessionOwner } from "../../contracts/rpc.js";
import { defineEnvironment, z } from "../../environments/sdk/index.js";
import { continueSession, openSession } from "../../environments/sdk/run.js";
import { CHECKED_KEPT, checkSessionId, checkSessionIdOnce, mintSessionId } from "../../environments/sdk/session-id.js";
import type { Local } from "../../local/emulation.js";
import { fixtureRows } from "../helpers/fixtures.js";
import { postJson, startTestLocal } from "../helpers/local.js";

const SECRET = "0123456789abcdef0123456789abcdef";
const owner: SessionOwner = { rollout: "job_1:0:3", token: "trainer" };
const ENV = "echo_env";
const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

describe("session ids (plain WebCrypto)", () => {
  it("a minted id checks out for its owner only", async () => {
    const id = await mintSessionId(SECRET, ENV, owner);
    expect(id).toMatch(/^[\w-]{22}\.[0-9a-z]+\.[\w-]{43}$/);
    expect((await checkSessionId(SECRET, ENV, id, owner)).ok).toBe(true);
    expect((await checkSessionId(SECRET, ENV, id, { ...owner, rollout: "job_1:0:4" })).ok).toBe(false);
    expect((await checkSessionId(SECRET, ENV, id, { ...owner, token: "someone-else" })).ok).toBe(false);
    expect((await checkSessionId("another-secret-another-secret-xx", ENV, id, owner)).ok).toBe(false);
  });

  it("an internal caller's id is MAC-checked once for exactly its owner; other owners, secrets, environments and forgeries in full", async () => {
    const id = await mintSessionId(SECRET, ENV, owner);
    const verify = vi.spyOn(crypto.subtle, "verify");
    try {
      const first = await checkSessionIdOnce(SECRET, ENV, id, owner);
      expect(first.ok).toBe(true);
      expect(await checkSessionIdOnce(SECRET, ENV, id, owner)).toEqual(first);
      expect(verify).toHaveBeenCalledTimes(1);
      expect((await checkSessionIdOnce(SECRET, ENV, id, { ...owner, rollout: "job_1:0:4" })).ok).toBe(false);
      expect((await checkSessionIdOnce(SECRET, ENV, id, { ...owner, token: "someone-else" })).ok).toBe(false);
      expect((await checkSessionIdOnce(SECRET, "other_env", id, owner)).ok).toBe(false);
      expect((await checkSessionIdOnce("another-secret-another-secret-xx", ENV, id, owner)).ok).toBe(false);
      const forged = `${id.slice(0, -2)}${id.endsWith("AA") ? "BB" : "AA"}`;
      // A refusal is not remembered: asked twice, checked twice.
      expect((await checkSessionIdOnce(SECRET, ENV, forged, owner)).ok).toBe(false);
      expect((await checkSessionIdOnce(SECRET, ENV, forged, owner)).ok).toBe(false);
      expect(verify).toHaveBeenCalledTimes(7);
    } finally {
      verify.mockRestore();
    }
  });

  it(`an internal caller's checked ids are kept ${CHECKED_KEPT} at most per secret, the oldest checked again`, async () => {
    const secret = "fedcba9876543210fedcba9876543210";
    const first = await mintSessionId(secret, ENV, owner);
    expect((await checkSessionIdOnce(secret, ENV, first, owner)).ok).toBe(true);
    for (let i = 0; i < CHECKED_KEPT; i++) {
      const other = { rollout: `job_2:0:${i}`, token: "trainer" };
      expect((await checkSessionIdOnce(secret, ENV, await mintSessionId(secret, ENV, other), other)).ok).toBe(true);
    }
    const verify = vi.spyOn(crypto.subtle, "verify");
    try {
      expect((await checkSessionIdOnce(secret, ENV, first, owner)).ok).toBe(true);
      expect(verify).toHaveBeenCalledTimes(1);
    } finally {
      verify.mockRestore();
    }
  });

  it("forged ids are refused: made up, tampered with, or re-dated", async () => {
    const id = await mintSessionId(SECRET, ENV, owner);
    const [random, opened, mac] = id.split(".") as [string, string, string];
    const flip = (text: string) => (text[0] === "A" ? "B" : "A") + text.slice(1);
    for (const forged of [
      "admin",
      crypto.randomUUID(),
      `${flip(random)}.${opened}.${mac}`,
      `${random}.${(Number.parseInt(opened, 36) + 9).toString(36)}.${mac}`,
      `${random}.${opened}.${flip(mac)}`,
    ]) {
      expect((await checkSessionId(SECRET, ENV, forged, owner)).ok, forged).toBe(false);
    }
  });

  it("a MAC has one spelling: every other last character (3 decode to the same bytes) is refused", async () => {
    for (let round = 0; round < 8; round++) {
      const id = await mintSessionId(SECRET, ENV, owner);
      const head = id.slice(0, -1);
      const accepted: string[] = [];
      for (const char of BASE64URL) if ((await checkSessionId(SECRET, ENV, head + char, owner)).ok) accepted.push(char);
      expect(accepted).toEqual([id.slice(-1)]);
    }
  });

  it("an id is bound to the environment that minted it: another environment refuses it, with the same secret and owner", async () => {
    const id = await mintSessionId(SECRET, "env_a", owner);
    expect((await checkSessionId(SECRET, "env_a", id, owner)).ok).toBe(true);
    expect((await checkSessionId(SECRET, "env_b", id, owner)).ok).toBe(false);
  });

  it("the operations the agent calls over RPC refuse another rollout's id (the same code as EnvironmentEntrypoint)", async () => {
    const environment = defineEnvironment({
      name: "echo_env",
      tools: { echo: { description: "echo", parameters: z.object({ text: z.string() }), execute: ({ text }) => ({ text }) } },
      verify: () => ({ reward: 1 }),
    });
    const env = { SESSION_SECRET: SECRET } as unknown as EnvironmentBindings;
    const call = (rollout: string, operation: Parameters<typeof openSession>[0]["operation"], body: unknown) => ({
      environment,
      env,
      operation,
      body,
      owner: { rollout, token: "(agent)" },
      trusted: true,
    });
    const opened = await openSession(call("job_1:0:0", { kind: "seed_session" }, { responses_create_params: { input: "hi" } }));
    expect(opened.status).toBe(200);
    const mine = await continueSession(call("job_1:0:0", { kind: "tool", name: "echo" }, { text: "x" }), opened.sessionId);
    expect(mine).toEqual({ status: 200, body: { text: "x" } });
    const theirs = await continueSession(call("job_1:0:1", { kind: "tool", name: "echo" }, { text: "x" }), opened.sessionId);
    expect(theirs.status).toBe(404);
    expect(theirs.body).toMatchObject({ error: { code: "unknown_session" } });
    // Another environment behind the same secret refuses the id, for the same rollout.
    const elsewhere = await continueSession(
      { ...call("job_1:0:0", { kind: "tool", name: "echo" }, { text: "x" }), environment: { ...environment, name: "echo_env_b" } },
      opened.sessionId,
    );
    expect(elsewhere.status).toBe(404);
  });
});

describe("sessions behind the gateway (workerd)", () => {
  const STATEFUL = "example_session_state_mgmt";
  const STATELESS = "example_single_tool_call";
  let local: Local;
  beforeAll(async () => {
    local = await startTestLocal({
      environments: [STATEFUL, STATELESS],
      apiTokens: "alice:alice-token-0123456789-padded-to-32-characters-or-more:run,bob:bob-token-0123456789-padded-to-32-characters-or-more:run",
      // Short-lived sessions, so expiry can be seen.
      vars: { environment: { SESSION_TTL_SECONDS: "2" } },
    });
  });
  afterAll(async () => {
    await local?.stop();
  });

  const alice = { authorization: "Bearer alice-token-0123456789-padded-to-32-characters-or-more" };
  const bob = { authorization: "Bearer bob-token-0123456789-padded-to-32-characters-or-more" };
  const counter = (route: string) => `${local.url}/v1/environments/${STATEFUL}/${route}`;

  it('a made-up id (such as "admin") is refused, never taken as a new shared session', async () => {
    for (const forged of ["admin", "survivor", crypto.randomUUID()]) {
      const answer = await postJson(counter("get_counter_value"), {}, { ...alice, "x-session-id": forged });
      expect(answer.status).toBe(404);
      expect(answer.body.error.code).toBe("unknown_session");
      // The same through edgegym's cookie.
      expect((await postJson(counter("increment_counter"), { count: 1 }, { ...bob, cookie: `edgegym_session=${forged}` })).status).toBe(404);
    }
  });

  it("another token's session is refused; the owner's goes on", async () => {
    const seeded = await postJson(counter("seed_session"), { initial_count: 5 }, alice);
    const session = { "x-session-id": seeded.headers.get("x-session-id")! };
    const stolen = await postJson(counter("increment_counter"), { count: 100 }, { ...bob, ...session });
    expect(stolen.status).toBe(404);
    expect(stolen.body.error.code).toBe("unknown_session");
    // Bob's attempt changed nothing.
    expect((await postJson(counter("get_counter_value"), {}, { ...alice, ...session })).body).toEqual({ count: 5 });
  });

  it("a NeMo Gym (Starlette) cookie with a bogus signature is not read", async () => {
    const seeded = await postJson(counter("seed_session"), { initial_count: 40 }, alice);
    const id = seeded.headers.get("x-session-id")!;
    const forged = `session=${Buffer.from(JSON.stringify({ session_id: id })).toString("base64")}.aBcDeF.Ym9ndXM`;
    // Only the Starlette cookie: it does not reach Alice's session (a new, empty one answers).
    const answer = await postJson(counter("get_counter_value"), {}, { ...bob, cookie: forged });
    expect(answer.body).toEqual({ count: 0 });
    expect(answer.headers.get("x-session-id")).not.toBe(id);
  });

  it("a stateful session expires after SESSION_TTL_SECONDS without use: refused (410), its state deleted, never recreated", async () => {
    const seeded = await postJson(counter("seed_session"), { initial_count: 7 }, alice);
    const session = { ...alice, "x-session-id": seeded.headers.get("x-session-id")! };
    expect((await postJson(counter("get_counter_value"), {}, session)).body).toEqual({ count: 7 });
    await sleep(3500);
    for (let i = 0; i < 2; i++) {
      const late = await postJson(counter("get_counter_value"), {}, session);
      expect(late.status).toBe(410);
      expect(late.body.error.code).toBe("session_expired");
    }
    // Nor does a write bring it back.
    expect((await postJson(counter("increment_counter"), { count: 1 }, session)).status).toBe(410);
  });

  it("a stateless session expires SESSION_TTL_SECONDS after it opened", async () => {
    const row = fixtureRows(STATELESS)[0]!;
    const base = `${local.url}/v1/environments/${STATELESS}`;
    const seeded = await postJson(`${base}/seed_session`, row, alice);
    const session = { ...alice, "x-session-id": seeded.headers.get("x-session-id")! };
    expect((await postJson(`${base}/get_weather`, { city: "Paris" }, session)).status).toBe(200);
    await sleep(3100);
    const late = await postJson(`${base}/get_weather`, { city: "Paris" }, session);
    expect(late.status).toBe(410);
  });

  it("rollouts through /run are untouched: their sessions are the agent's own", async () => {
    const answer = await postJson(`${local.url}/run?environment=${STATEFUL}`, fixtureRows(STATEFUL)[1]!, alice);
    expect(answer.status).toBe(200);
    expect(typeof answer.body.reward).toBe("number");
  });
});

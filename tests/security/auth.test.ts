// Bearer tokens with scopes on the gateway (workerd): missing, wrong, rotated and scope-lacking tokens; request ids.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import { fixtureRows } from "../helpers/fixtures.js";
import { startTestLocal } from "../helpers/local.js";

const ENV = "example_single_tool_call";
const TOKENS = {
  admin: "admin-token-0123456789-padded-to-32-characters-or-more",
  trainerOld: "trainer-old-0123456789-padded-to-32-characters-or-more",
  trainerNew: "trainer-new-0123456789-padded-to-32-characters-or-more",
  modelOnly: "model-only-0123456789-padded-to-32-characters-or-more",
  jobsOnly: "jobs-only-0123456789-padded-to-32-characters-or-more",
};

let local: Local;
beforeAll(async () => {
  local = await startTestLocal({
    environments: [ENV],
    // The trainer's token is being rotated: the old and the new one are both valid, under one name.
    apiTokens: [
      `ops:${TOKENS.admin}:admin`,
      `trainer:${TOKENS.trainerOld}:run+model`,
      `trainer:${TOKENS.trainerNew}:run+model`,
      `sampler:${TOKENS.modelOnly}:model`,
      `collector:${TOKENS.jobsOnly}:jobs`,
    ].join(","),
  });
});
afterAll(async () => {
  await local?.stop();
});

function call(path: string, token?: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (token) headers.set("authorization", `Bearer ${token}`);
  return fetch(`${local.url}${path}`, { ...init, headers });
}

const row = () => fixtureRows(ENV)[0]!;
const post = (body: unknown) => ({ method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } });

describe("authentication: 401 with WWW-Authenticate", () => {
  it("/health needs no token; every other route does", async () => {
    expect((await call("/health")).status).toBe(200);
    for (const [path, init] of [
      ["/run", post(row())],
      ["/v1/environments", {}],
      ["/v1/jobs", {}],
      ["/v1/models", {}],
      ["/v1/files", {}],
      ["/no/such/route", {}],
    ] as const) {
      const answer = await call(path, undefined, init);
      expect(answer.status, path).toBe(401);
      expect(answer.headers.get("www-authenticate"), path).toMatch(/^Bearer realm=/);
      expect(((await answer.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
    }
  });

  it("a wrong token: 401, invalid_token, and the token itself in no part of the answer", async () => {
    const wrong = "not-a-token-of-ours-42";
    const answer = await call("/v1/environments", wrong);
    expect(answer.status).toBe(401);
    expect(answer.headers.get("www-authenticate")).toContain('error="invalid_token"');
    const text = await answer.text();
    expect(JSON.parse(text).error.message).toContain("not valid");
    expect(text).not.toContain(wrong);
    expect([...answer.headers.values()].join(" ")).not.toContain(wrong);
  });

  it("a header that is not `Bearer <token>` is refused", async () => {
    const answer = await fetch(`${local.url}/v1/environments`, { headers: { authorization: `Basic ${btoa("a:b")}` } });
    expect([400, 401]).toContain(answer.status);
    expect(answer.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });
});

describe("rotation: several tokens at once", () => {
  it("the old and the new token of a name both work, and share what the name owns", async () => {
    for (const token of [TOKENS.trainerOld, TOKENS.trainerNew]) {
      const answer = await call(`/run?environment=${ENV}`, token, post(row()));
      expect(answer.status).toBe(200);
      expect(typeof ((await answer.json()) as { reward: number }).reward).toBe("number");
    }
    // A session opened with the old token goes on with the new one: sessions belong to the token's name.
    const seeded = await call(`/v1/environments/${ENV}/seed_session`, TOKENS.trainerOld, post(row()));
    const session = seeded.headers.get("x-session-id")!;
    const tool = await call(`/v1/environments/${ENV}/get_weather`, TOKENS.trainerNew, {
      ...post({ city: "Paris" }),
      headers: { "content-type": "application/json", "x-session-id": session },
    });
    expect(tool.status).toBe(200);
  });
});

describe("scopes: 403 for a token without the route's scope", () => {
  it("each route group asks for its scope; admin may do everything", async () => {
    const cases: [string, RequestInit, string, number][] = [
      [`/run?environment=${ENV}`, post(row()), TOKENS.modelOnly, 403],
      [`/run?environment=${ENV}`, post(row()), TOKENS.jobsOnly, 403],
      ["/v1/environments", {}, TOKENS.modelOnly, 403],
      ["/v1/environments", {}, TOKENS.trainerNew, 200],
      ["/v1/jobs", {}, TOKENS.trainerNew, 403],
      ["/v1/jobs", {}, TOKENS.jobsOnly, 200],
      ["/v1/files", {}, TOKENS.modelOnly, 403],
      ["/v1/models", {}, TOKENS.jobsOnly, 403],
      ["/v1/models", {}, TOKENS.modelOnly, 200],
      ["/v1/responses", post({ input: "hi" }), TOKENS.jobsOnly, 403],
      ["/v1/responses", post({ input: "hi" }), TOKENS.modelOnly, 200],
      ["/v1/jobs", {}, TOKENS.admin, 200],
      [`/run?environment=${ENV}`, post(row()), TOKENS.admin, 200],
      // A route no scope lists needs admin: closed unless listed.
      ["/no/such/route", {}, TOKENS.trainerNew, 403],
      ["/no/such/route", {}, TOKENS.admin, 404],
    ];
    for (const [path, init, token, status] of cases) {
      const answer = await call(path, token, init);
      expect(answer.status, `${path} with ${token}`).toBe(status);
      if (status === 403) {
        const body = (await answer.json()) as { error: { code: string; message: string } };
        expect(body.error.code).toBe("insufficient_scope");
        expect(answer.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
        expect(JSON.stringify(body)).not.toContain(token);
      } else {
        await answer.arrayBuffer();
      }
    }
  });
});

describe("request ids", () => {
  it("every answer has one: the caller's when well-formed, else a new one; error bodies carry it too", async () => {
    const given = await call("/v1/environments", TOKENS.admin, { headers: { "x-request-id": "trainer-step-7.rollout:3" } });
    expect(given.headers.get("x-request-id")).toBe("trainer-step-7.rollout:3");
    await given.arrayBuffer();

    const made = await call("/health", undefined, { headers: { "x-request-id": "bad id with spaces and a \u00e9" } });
    expect(made.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    await made.arrayBuffer();

    const refused = await call("/v1/jobs/job_nope", TOKENS.admin);
    expect(refused.status).toBe(404);
    const body = (await refused.json()) as { error: { request_id: string } };
    expect(body.error.request_id).toBe(refused.headers.get("x-request-id"));

    const unauthorized = await call("/v1/jobs");
    expect(((await unauthorized.json()) as { error: { request_id: string } }).error.request_id).toBe(unauthorized.headers.get("x-request-id"));
  });
});

describe("a bad API_TOKENS", () => {
  it("refuses to start, naming the entry but never the token", async () => {
    const secret = "a-secret-that-must-not-leak-0123456789";
    const attempt = startTestLocal({ environments: [ENV], apiTokens: `ok:${secret}:run, broken-entry-${secret}` });
    await expect(attempt).rejects.toThrow(/API_TOKENS entry 2 is not name:token:scopes/);
    await attempt.catch((error: Error) => expect(error.message).not.toContain(secret));
  });
});

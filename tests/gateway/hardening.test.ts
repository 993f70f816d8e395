// Issue 23's smaller items on a running gateway (workerd): failed logins throttled per address, short tokens refused,
// a malformed X-Forwarded-Host never a 500, and the session cookie Secure when the caller came over HTTPS.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIN_TOKEN_LENGTH, parseApiTokens } from "../../contracts/tokens.js";
import type { Local } from "../../local/emulation.js";
import { startTestLocal } from "../helpers/local.js";

const STATEFUL = "example_session_state_mgmt";
const TOKEN = "hardening-test-token-0123456789abcdefghij";

let local: Local;
beforeAll(async () => {
  local = await startTestLocal({ environments: [STATEFUL], apiTokens: `ops:${TOKEN}:admin` });
});
afterAll(async () => {
  await local?.stop();
});

/** A GET of `path` from the address `ip` (CF-Connecting-IP), with `token` when given. */
function from(ip: string, path: string, token?: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${local.url}${path}`, { headers: { "cf-connecting-ip": ip, ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } });
}

describe("failed logins", () => {
  it("after 10 wrong tokens in a minute, the address gets 429 with Retry-After, the right token too; others are untouched", async () => {
    const attacker = "203.0.113.7";
    for (let i = 0; i < 10; i++) {
      const answer = await from(attacker, "/v1/environments", `wrong-guess-${i}`);
      expect(answer.status, `attempt ${i + 1}`).toBe(401);
    }
    const refused = await from(attacker, "/v1/environments", "wrong-guess-10");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("too_many_failed_logins");
    // Before any token is compared: the right one is refused as well from there, for now.
    expect((await from(attacker, "/v1/environments", TOKEN)).status).toBe(429);
    // Another address is not: its wrong token is a 401, its right one a 200.
    expect((await from("198.51.100.9", "/v1/environments", "wrong")).status).toBe(401);
    expect((await from("198.51.100.9", "/v1/environments", TOKEN)).status).toBe(200);
  });

  it("successful calls are never counted: 30 in a row from one address all answer 200", async () => {
    for (let i = 0; i < 30; i++) expect((await from("198.51.100.10", "/v1/environments", TOKEN)).status).toBe(200);
  });

  it("a missing header compares nothing and is not counted: still 401, not 429", async () => {
    for (let i = 0; i < 15; i++) expect((await from("198.51.100.11", "/v1/environments")).status).toBe(401);
  });
});

describe("token length", () => {
  it(`a token shorter than ${MIN_TOKEN_LENGTH} characters is refused, naming the entry and the length, never the token`, () => {
    const short = "x".repeat(MIN_TOKEN_LENGTH - 1);
    expect(() => parseApiTokens(`ops:${"y".repeat(MIN_TOKEN_LENGTH)}:admin,trainer:${short}:run`)).toThrow(
      'entry 2 ("trainer"): the token is 31 characters; at least 32 are needed',
    );
    expect(() => parseApiTokens("ops:a:admin")).toThrow(/at least 32/);
    expect(parseApiTokens(`ops:${"y".repeat(MIN_TOKEN_LENGTH)}:admin`)).toHaveLength(1);
  });

  it("an emulation given a short token does not start, and says why", async () => {
    await expect(startTestLocal({ environments: [STATEFUL], apiTokens: "ops:short-token:admin" })).rejects.toThrow(/at least 32/);
  });
});

describe("X-Forwarded-Host", () => {
  const MALFORMED = ["bad host", "evil.com/path", "a:b:c", "[zz", "host:99999", "host:", "@evil", "x".repeat(300), "%00", "a\tb", "[::1"];
  it("a malformed value is ignored by discovery: 200 with the address the request reached, never a 500", async () => {
    const own = new URL(local.url);
    for (const value of MALFORMED) {
      for (const route of ["/server_instances", "/global_config_dict_yaml"]) {
        const answer = await from("198.51.100.20", route, TOKEN, { "x-forwarded-host": value });
        const text = await answer.text();
        expect(answer.status, `${route} with ${JSON.stringify(value)}`).toBe(200);
        if (route === "/server_instances") expect(JSON.parse(text)[0]).toMatchObject({ host: own.hostname, port: Number(own.port) });
      }
    }
    // A well-formed one is still honoured.
    const named = await from("198.51.100.20", "/server_instances", TOKEN, { "x-forwarded-host": "127.0.0.1:11000" });
    expect(((await named.json()) as { host: string; port: number }[])[0]).toMatchObject({ host: "127.0.0.1", port: 11000 });
  });
});

describe("the session cookie", () => {
  const seed = (headers: Record<string, string>) =>
    fetch(`${local.url}/v1/environments/${STATEFUL}/seed_session`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json", "cf-connecting-ip": "198.51.100.30", ...headers },
      body: JSON.stringify({ initial_count: 1 }),
    });

  it("is Secure when the caller came over HTTPS (X-Forwarded-Proto from the front), HttpOnly and SameSite always", async () => {
    const secure = (await seed({ "x-forwarded-proto": "https" })).headers.get("set-cookie") ?? "";
    expect(secure).toMatch(/^edgegym_session=/);
    expect(secure).toMatch(/; Secure/);
    expect(secure).toMatch(/; HttpOnly/);
    expect(secure).toMatch(/; SameSite=Lax/);
  });

  it("is not Secure over plain HTTP (a local run), still HttpOnly and SameSite", async () => {
    const plain = (await seed({})).headers.get("set-cookie") ?? "";
    expect(plain).toMatch(/^edgegym_session=/);
    expect(plain).not.toMatch(/Secure/);
    expect(plain).toMatch(/; HttpOnly/);
    expect(plain).toMatch(/; SameSite=Lax/);
  });
});

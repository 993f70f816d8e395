// The gateway's bearer-token authentication, and session state that outlives the runtime.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { gatewayFetch, postJson, startTestLocal } from "../helpers/local.js";

describe("authentication", () => {
  it("every route but /health and the dashboard's page and assets needs one of the configured bearer tokens", async () => {
    const local = await startTestLocal({
      environments: ["example_single_tool_call"],
      apiTokens: "one:token-one-padded-to-32-characters-or-more:admin, two:token-two-padded-to-32-characters-or-more:run",
    });
    try {
      expect((await gatewayFetch(`${local.url}/health`)).status).toBe(200);
      const none = await gatewayFetch(`${local.url}/v1/environments`);
      expect(none.status).toBe(401);
      expect(((await none.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
      expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/);
      // A wrong token is a 401 too (RFC 6750: invalid_token), saying why in the envelope.
      const wrong = await gatewayFetch(`${local.url}/v1/environments`, { headers: { authorization: "Bearer token-three" } });
      expect(wrong.status).toBe(401);
      expect(wrong.headers.get("www-authenticate")).toContain('error="invalid_token"');
      expect(((await wrong.json()) as { error: { message: string } }).error.message).toContain("not valid");
      expect(
        (await gatewayFetch(`${local.url}/v1/environments`, { headers: { authorization: "Bearer token-two-padded-to-32-characters-or-more" } })).status,
      ).toBe(200);
      const run = await postJson(`${local.url}/run?environment=example_single_tool_call`, { responses_create_params: { input: "weather in sf?" } });
      expect(run.status).toBe(401);
      // The dashboard's page and assets hold no data and load without a token; the data behind them does not.
      const page = await fetch(`${local.url}/`);
      expect(page.status).toBe(200);
      expect(page.headers.get("content-type")).toContain("text/html");
      expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
      const script = (await page.text()).match(/src="(\/dashboard\/app\.js\?v=[0-9a-f]+)"/)?.[1];
      expect(script).toBeDefined();
      const js = await fetch(`${local.url}${script}`);
      expect(js.status).toBe(200);
      expect(js.headers.get("content-type")).toContain("text/javascript");
      expect((await js.text()).length).toBeGreaterThan(1000);
      expect((await fetch(`${local.url}/dashboard/app.css`)).status).toBe(200);
      expect((await fetch(`${local.url}/dashboard/nothing-here`)).status).toBe(404);
      expect((await fetch(`${local.url}/v1/jobs/job_abc/summary`)).status).toBe(401);
      expect((await fetch(`${local.url}/v1/jobs/job_abc/records`)).status).toBe(401);
      // The page's headers stay on the page: the API's answers (and streams) carry none of them.
      const api = await fetch(`${local.url}/v1/jobs`, { headers: { authorization: "Bearer token-one-padded-to-32-characters-or-more" } });
      expect(api.status).toBe(200);
      expect(api.headers.get("content-security-policy")).toBeNull();
      expect(api.headers.get("etag")).toBeNull();
    } finally {
      await local.stop();
    }
  });
});

describe("durable session state", () => {
  it("a session's state survives a restart of the whole runtime", async () => {
    const persist = mkdtempSync(path.join(tmpdir(), "edgegym-state-"));
    const counter = (url: string) => `${url}/v1/environments/example_session_state_mgmt`;
    // The same token on both runs (a dev token is made up per run): the session belongs to the token's name, "dev".
    const apiTokens = "dev:survivor-token-padded-to-32-characters-or-more:admin";
    const auth = { authorization: "Bearer survivor-token-padded-to-32-characters-or-more" };
    let headers: Record<string, string> = {};

    const first = await startTestLocal({ environments: ["example_session_state_mgmt"], persist, apiTokens });
    try {
      const seeded = await postJson(`${counter(first.url)}/seed_session`, { initial_count: 40 }, auth);
      headers = { ...auth, "x-session-id": seeded.headers.get("x-session-id")! };
      await postJson(`${counter(first.url)}/increment_counter`, { count: 2 }, headers);
    } finally {
      await first.stop();
    }

    const second = await startTestLocal({ environments: ["example_session_state_mgmt"], persist, apiTokens });
    try {
      expect((await postJson(`${counter(second.url)}/get_counter_value`, {}, headers)).body).toEqual({ count: 42 });
    } finally {
      await second.stop();
    }
  });
});

describe("keep-alive connections", () => {
  it("a request whose body nobody reads (an early 404 or 401) does not cost the next request on the connection", async () => {
    const local = await startTestLocal({ environments: ["example_single_tool_call"] });
    try {
      const body = JSON.stringify({ padding: "x".repeat(20_000) });
      for (let i = 0; i < 30; i++) {
        const unread = await gatewayFetch(`${local.url}/v1/environments/nope/verify`, { method: "POST", body });
        expect(unread.status).toBe(404);
        await unread.arrayBuffer();
        const next = await gatewayFetch(`${local.url}/health`);
        expect(next.status).toBe(200);
        await next.arrayBuffer();
      }
    } finally {
      await local.stop();
    }
  });
});

// The request id in every error the gateway answers, written last into the envelope wherever that envelope is made: the
// error handler, the 404 and 405, the token, scope and body guards, a job's row problems, and an environment's own error.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import { startTestLocal } from "../helpers/local.js";

const ENV = "example_single_tool_call";
const ADMIN = "admin-token-0123456789-padded-to-32-characters-or-more";
const JOBS_ONLY = "jobs-only-0123456789-padded-to-32-characters-or-more";

let local: Local;
beforeAll(async () => {
  local = await startTestLocal({
    environments: [ENV],
    apiTokens: `ops:${ADMIN}:admin,collector:${JOBS_ONLY}:jobs`,
    vars: { gateway: { MAX_BODY_BYTES: "2048" } },
  });
});
afterAll(async () => {
  await local?.stop();
});

/** The answer's status, its x-request-id and Allow headers, and its body's text. */
async function answer(path: string, token: string | undefined, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  if (token) headers.set("authorization", `Bearer ${token}`);
  headers.set("x-request-id", `test-${Math.random().toString(36).slice(2)}`);
  const response = await fetch(`${local.url}${path}`, { ...init, headers });
  return { status: response.status, id: response.headers.get("x-request-id"), allow: response.headers.get("allow"), text: await response.text() };
}

/** The envelope's error object: the id is the answer's, and the last key (as the envelope was made, not patched). */
function expectIdLast(text: string, id: string | null): Record<string, unknown> {
  const error = (JSON.parse(text) as { error: Record<string, unknown> }).error;
  expect(id).toMatch(/^test-/);
  expect(error.request_id).toBe(id);
  expect(Object.keys(error).at(-1)).toBe("request_id");
  return error;
}

describe("request_id in the gateway's error envelopes", () => {
  it("a path no route has (404), a method a route does not take (405)", async () => {
    const missing = await answer("/v1/nowhere", ADMIN);
    expect(missing.status).toBe(404);
    expect(expectIdLast(missing.text, missing.id)).toMatchObject({ code: "not_found" });

    const wrongMethod = await answer("/v1/environments", ADMIN, { method: "DELETE" });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.allow).toBe("GET, HEAD");
    expect(expectIdLast(wrongMethod.text, wrongMethod.id)).toMatchObject({ code: "method_not_allowed" });
  });

  it("no token (401), a token without the route's scope (403), a body over the cap (413)", async () => {
    const anonymous = await answer("/v1/jobs", undefined);
    expect(anonymous.status).toBe(401);
    expect(expectIdLast(anonymous.text, anonymous.id)).toMatchObject({ code: "unauthorized" });

    const scoped = await answer(`/run?environment=${ENV}`, JOBS_ONLY, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(scoped.status).toBe(403);
    expect(expectIdLast(scoped.text, scoped.id)).toMatchObject({ code: "insufficient_scope" });

    const large = await answer(`/run?environment=${ENV}`, ADMIN, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ padding: "x".repeat(4096) }),
    });
    expect(large.status).toBe(413);
    expect(expectIdLast(large.text, large.id)).toMatchObject({ code: "body_too_large" });
  });

  it("a job whose rows have problems (400 with issues): the id comes after the issues", async () => {
    const rows = await answer("/v1/jobs", ADMIN, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ environment: ENV, rows: [{ responses_create_params: { input: 7 } }] }),
    });
    expect(rows.status).toBe(400);
    const error = expectIdLast(rows.text, rows.id);
    expect(error).toMatchObject({ code: "invalid_rows" });
    expect(Array.isArray(error.issues)).toBe(true);
  });

  it("an environment's own error, passed back through the gateway, carries the gateway's id too", async () => {
    // The environment's own 405 names its own path (the gateway's would name /v1/environments/…).
    const tool = await answer(`/v1/environments/${ENV}/get_weather`, ADMIN);
    expect(tool.status, tool.text).toBe(405);
    expect(tool.allow).toBe("POST");
    expect(expectIdLast(tool.text, tool.id)).toMatchObject({ code: "method_not_allowed", message: "GET is not allowed on /get_weather (allowed: POST)" });
  });

  it("a success carries the id in its header only", async () => {
    const health = await answer("/health", undefined);
    expect(health.status).toBe(200);
    expect(health.id).toMatch(/^test-/);
    expect(health.text).not.toContain("request_id");
  });
});

// Per-tenant quotas (TENANT_QUOTAS) on the gateway (workerd): each of jobs, rollouts, bytes and in_flight refused with 429
// quota_exceeded naming the quota, its limit and the use; what was accepted before is untouched; other tenants unaffected.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseTenantQuotas, quotaOf } from "../../contracts/quotas.js";
import type { Local } from "../../local/emulation.js";
import { startTestLocal } from "../helpers/local.js";

const ENV = "example_single_tool_call";
const token = (name: string) => `${name}-token-0123456789-padded-to-32-characters`;
const TENANTS = ["team-j", "team-r", "team-s", "team-f", "free"];

let local: Local;
beforeAll(async () => {
  local = await startTestLocal({
    environments: [ENV],
    apiTokens: [`ops:${token("ops")}:admin`, ...TENANTS.map((name) => `${name}:${token(name)}:jobs+run`)].join(","),
    tenantQuotas: "team-j:jobs=1,team-r:rollouts=500,team-s:bytes=100,team-f:in_flight=1,*:jobs=50",
    // A slow model and a narrow window: a job of a few hundred rollouts runs for seconds, long enough to count as unfinished.
    simulator: { latencyMs: { min: 100, max: 200 } },
    vars: { agent: { RUNNER_SHARDS: "1", RUNNER_MAX_IN_FLIGHT: "4" } },
  });
}, 60_000);
afterAll(async () => {
  await local?.stop();
});

function call(name: string, path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${token(name)}`);
  return fetch(`${local.url}${path}`, { ...init, headers });
}

const rows = (n: number) =>
  Array.from({ length: n }, (_, i) => JSON.stringify({ responses_create_params: { input: `weather in Oslo, day ${i}?` } })).join("\n");
const createJob = (name: string, n: number, repeats: number) =>
  call(name, `/v1/jobs?environment=${ENV}&num_repeats=${repeats}`, { method: "POST", headers: { "content-type": "application/x-ndjson" }, body: rows(n) });

type Envelope = { error: { code: string; message: string; issues: { path: string[]; message: string }[] } };

async function expectQuota(response: Response, quota: string, limit: number, used: number): Promise<void> {
  expect(response.status).toBe(429);
  const body = (await response.json()) as Envelope;
  expect(body.error.code).toBe("quota_exceeded");
  expect(body.error.message).toContain(`over its ${quota} quota: ${used} `);
  expect(body.error.message).toContain(`at most ${limit} (TENANT_QUOTAS)`);
  expect(body.error.issues).toEqual([{ path: ["TENANT_QUOTAS", quota], message: `limit ${limit}, in use ${used}` }]);
  if (quota === "in_flight") expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  else expect(response.headers.get("retry-after")).toBeNull();
}

const jobIds = async (name: string) => ((await (await call(name, "/v1/jobs")).json()) as { data: { id: string; status: string }[] }).data;
const inputsOf = async () => {
  const bucket = await local.miniflare.getR2Bucket("BUCKET", "writer");
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix: "jobs/", ...(cursor ? { cursor } : {}) });
    keys.push(...page.objects.map((object) => object.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return keys.filter((key) => key.includes("/inputs/")).length;
};

describe("jobs and rollouts, checked at create", () => {
  it("jobs: a second unfinished job is refused; the first runs on; once it ends, a new one is taken", async () => {
    const first = await createJob("team-j", 100, 4);
    expect(first.status).toBe(201);
    const id = ((await first.json()) as { id: string }).id;
    await expectQuota(await createJob("team-j", 1, 1), "jobs", 1, 2);
    const listed = await jobIds("team-j");
    expect(listed.map((job) => [job.id, job.status])).toEqual([[id, "running"]]);
    // Another tenant is not held to team-j's quota.
    expect((await createJob("free", 1, 1)).status).toBe(201);

    expect((await call("team-j", `/v1/jobs/${id}`, { method: "DELETE" })).status).toBe(200);
    const next = await createJob("team-j", 100, 4);
    expect(next.status).toBe(201);
    const nextId = ((await next.json()) as { id: string }).id;
    // A resume of the cancelled job would make two unfinished: refused, and the job stays cancelled.
    await expectQuota(await call("team-j", `/v1/jobs/${id}/resume`, { method: "POST" }), "jobs", 1, 2);
    expect(((await (await call("team-j", `/v1/jobs/${id}`)).json()) as { status: string }).status).toBe("cancelled");
    expect((await call("team-j", `/v1/jobs/${nextId}`, { method: "DELETE" })).status).toBe(200);
    expect((await call("team-j", `/v1/jobs/${id}/resume`, { method: "POST" })).status).toBe(200);
    expect((await call("team-j", `/v1/jobs/${id}`, { method: "DELETE" })).status).toBe(200);
  });

  it("rollouts: the new job's rollouts count with those of the unfinished jobs; a refused job leaves no inputs behind", async () => {
    const first = await createJob("team-r", 100, 4);
    expect(first.status).toBe(201);
    const id = ((await first.json()) as { id: string }).id;
    const objects = await inputsOf();
    await expectQuota(await createJob("team-r", 20, 6), "rollouts", 500, 520);
    expect(await inputsOf()).toBe(objects);
    expect((await jobIds("team-r")).map((job) => job.id)).toEqual([id]);
    // Up to the limit is taken.
    const fits = await createJob("team-r", 20, 5);
    expect(fits.status).toBe(201);
    for (const job of await jobIds("team-r")) await call("team-r", `/v1/jobs/${job.id}`, { method: "DELETE" });
  });
});

describe("bytes of uploads, checked as they are stored", () => {
  it("an upload past the quota is refused and not kept; the files before it are; a replaced file counts once", async () => {
    const put = (name: string, bytes: number) => call("team-s", `/v1/files/${name}`, { method: "PUT", body: "x".repeat(bytes) });
    expect((await put("a.jsonl", 60)).status).toBe(201);
    await expectQuota(await put("b.jsonl", 60), "bytes", 100, 120);
    const files = (await (await call("team-s", "/v1/files")).json()) as { data: { name: string }[] };
    expect(files.data.map((file) => file.name)).toEqual(["a.jsonl"]);
    expect((await put("a.jsonl", 90)).status).toBe(201);
    await expectQuota(await put("c.jsonl", 11), "bytes", 100, 101);
    expect((await put("c.jsonl", 10)).status).toBe(201);
  });
});

describe("calls in flight", () => {
  it("the tenant's concurrent /run calls past in_flight get 429 with Retry-After; the one taken completes", async () => {
    const run = () =>
      call("team-f", `/run?environment=${ENV}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ responses_create_params: { input: "weather in Oslo?" } }),
      });
    const answers = await Promise.all([run(), run(), run()]);
    const taken = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(taken.length).toBeGreaterThanOrEqual(1);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(taken.length + refused.length).toBe(3);
    for (const answer of taken) expect(typeof ((await answer.json()) as { reward: number }).reward).toBe("number");
    await expectQuota(refused[0]!, "in_flight", 1, 2);
    // Once it is back, the tenant's next call is taken.
    expect((await run()).status).toBe(200);
  });
});

describe("TENANT_QUOTAS, read like API_TOKENS", () => {
  it("parses sizes and the * default; a listed name does not take *'s quotas", () => {
    const quotas = parseTenantQuotas("team-a:jobs=20+rollouts=200000+bytes=2GiB+in_flight=64, *:jobs=5");
    expect(quotaOf(quotas, "team-a")).toEqual({ jobs: 20, rollouts: 200_000, bytes: 2 * 2 ** 30, in_flight: 64 });
    expect(quotaOf(quotas, "team-z")).toEqual({ jobs: 5 });
    expect(quotaOf(parseTenantQuotas(""), "team-a")).toEqual({});
    expect(parseTenantQuotas("x:bytes=500MB").x).toEqual({ bytes: 500_000_000 });
  });

  it("names the entry and the field of a bad one", () => {
    expect(() => parseTenantQuotas("team-a:jobs=20,team-b:jobs=many")).toThrow('entry 2 ("team-b"): jobs must be a whole number');
    expect(() => parseTenantQuotas("team-a:job=2")).toThrow('entry 1 ("team-a"): job is not a quota (jobs, rollouts, bytes, in_flight)');
    expect(() => parseTenantQuotas("team-a:bytes=2 parsecs")).toThrow('entry 1 ("team-a"): bytes must be a size such as 500MB, 2GiB or 1048576');
    expect(() => parseTenantQuotas("team-a")).toThrow("entry 1 is not name:quota=value+quota=value");
    expect(() => parseTenantQuotas("team-a:jobs")).toThrow('entry 1 ("team-a"): "jobs" is not quota=value');
    expect(() => parseTenantQuotas("a:jobs=1,a:jobs=2")).toThrow('entry 2 ("a"): the name appears twice');
  });
});

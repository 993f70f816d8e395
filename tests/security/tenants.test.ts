// Two tenants with the same scopes on one gateway (workerd): neither sees, follows, cancels, resumes or downloads the
// other's jobs, uploads or sessions; admin sees both; a `read` token reads its tenant's jobs and changes nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import { startTestLocal } from "../helpers/local.js";

const ENV = "example_single_tool_call";
const STATEFUL = "example_session_state_mgmt";
const TOKENS = {
  admin: "ops-token-0123456789-padded-to-32-characters",
  a: "team-a-token-0123456789-padded-to-32-characters",
  aRead: "team-a-read-0123456789-padded-to-32-characters",
  b: "team-b-token-0123456789-padded-to-32-characters",
};

let local: Local;
beforeAll(async () => {
  local = await startTestLocal({
    environments: [ENV, STATEFUL],
    apiTokens: [`ops:${TOKENS.admin}:admin`, `team-a:${TOKENS.a}:jobs+run`, `team-a:${TOKENS.aRead}:read`, `team-b:${TOKENS.b}:jobs+run`].join(","),
  });
});
afterAll(async () => {
  await local?.stop();
});

function call(token: string, path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${token}`);
  return fetch(`${local.url}${path}`, { ...init, headers });
}

/** The status and the error envelope without its request id (which differs per request). */
async function answer(response: Response): Promise<{ status: number; error?: { code: string; message: string } }> {
  const text = await response.text();
  let error: { code: string; message: string } | undefined;
  try {
    const parsed = JSON.parse(text) as { error?: { code: string; message: string } };
    if (parsed.error) error = { code: parsed.error.code, message: parsed.error.message };
  } catch {
    // A JSONL body: no envelope.
  }
  return { status: response.status, ...(error ? { error } : {}) };
}

const rows = (n: number) =>
  Array.from({ length: n }, (_, i) => JSON.stringify({ responses_create_params: { input: `weather in Lisbon, day ${i}?` } })).join("\n");

async function createAs(token: string, n = 2): Promise<string> {
  const response = await call(token, `/v1/jobs?environment=${ENV}`, { method: "POST", headers: { "content-type": "application/x-ndjson" }, body: rows(n) });
  const body = (await response.json()) as { id: string };
  expect(response.status, JSON.stringify(body)).toBe(201);
  return body.id;
}

/** Every job route, read-only first; `init` for the two that change the job. */
const READ_ROUTES = (id: string): string[] => [
  `/v1/jobs/${id}`,
  `/v1/jobs/${id}/rollouts`,
  `/v1/jobs/${id}/failures`,
  `/v1/jobs/${id}/records`,
  `/v1/jobs/${id}/summary`,
  `/v1/jobs/${id}/rollouts?follow=true`,
  `/v1/jobs/${id}/failures?follow=true`,
];
const WRITE_ROUTES = (id: string): [string, RequestInit][] => [
  [`/v1/jobs/${id}`, { method: "DELETE" }],
  [`/v1/jobs/${id}/resume`, { method: "POST" }],
];

let jobA: string;
let jobB: string;
/** A well-formed id no job has. */
const NOBODY = "job_zzzzzzzzzzzzzzzzzz";
const asMissing = (id: string) => ({ status: 404, error: { code: "unknown_job", message: `no job "${id}"` } });

describe("owners: every job route", () => {
  beforeAll(async () => {
    jobA = await createAs(TOKENS.a);
    jobB = await createAs(TOKENS.b);
    // Settled jobs: follow ends, and a resume finds nothing missing.
    for (const id of [jobA, jobB]) {
      for (;;) {
        const info = (await (await call(TOKENS.admin, `/v1/jobs/${id}`)).json()) as { status: string };
        if (info.status !== "running") break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }, 60_000);

  it("records the owner, shown in the job's status and in the list", async () => {
    expect(((await (await call(TOKENS.a, `/v1/jobs/${jobA}`)).json()) as { owner: string }).owner).toBe("team-a");
    const list = (await (await call(TOKENS.admin, "/v1/jobs")).json()) as { data: { id: string; owner: string }[] };
    expect(list.data.find((job) => job.id === jobA)?.owner).toBe("team-a");
    expect(list.data.find((job) => job.id === jobB)?.owner).toBe("team-b");
  });

  it("B on A's job gets exactly what a missing id gets, on every read route (the dashboard's data included)", async () => {
    for (const path of READ_ROUTES(jobA)) {
      expect(await answer(await call(TOKENS.b, path)), path).toEqual(asMissing(jobA));
      expect(await answer(await call(TOKENS.b, path.replace(jobA, NOBODY))), path).toEqual(asMissing(NOBODY));
    }
  });

  it("A reads its own job on every route, admin reads both", async () => {
    for (const [token, id] of [
      [TOKENS.a, jobA],
      [TOKENS.b, jobB],
      [TOKENS.admin, jobA],
      [TOKENS.admin, jobB],
    ] as const) {
      for (const path of READ_ROUTES(id)) expect((await call(token, path)).status, `${path} (${token})`).toBe(200);
    }
    const rollouts = await (await call(TOKENS.a, `/v1/jobs/${jobA}/rollouts`)).text();
    expect(rollouts.trim().split("\n")).toHaveLength(2);
  });

  it("B cannot cancel or resume A's job: 404 as for a missing id, and A's job is unchanged", async () => {
    const before = (await (await call(TOKENS.a, `/v1/jobs/${jobA}`)).json()) as { status: string; counts: unknown };
    for (const [path, init] of WRITE_ROUTES(jobA)) {
      expect(await answer(await call(TOKENS.b, path, init)), path).toEqual(asMissing(jobA));
      expect(await answer(await call(TOKENS.b, path.replace(jobA, NOBODY), init)), path).toEqual(asMissing(NOBODY));
    }
    const after = (await (await call(TOKENS.a, `/v1/jobs/${jobA}`)).json()) as { status: string; counts: unknown };
    expect(after.status).toBe(before.status);
    expect(after.counts).toEqual(before.counts);
  });

  it("the group feed (a take moves a cursor): B on A's job gets a missing id's answer, A and admin take its groups", async () => {
    const feed = (id: string) => `/v1/jobs/${id}/groups?wait=0&cursor=tenants`;
    expect(await answer(await call(TOKENS.b, feed(jobA)))).toEqual(asMissing(jobA));
    expect(await answer(await call(TOKENS.b, feed(NOBODY)))).toEqual(asMissing(NOBODY));
    const mine = (await (await call(TOKENS.a, feed(jobA))).json()) as { data: { task_index: number }[] };
    expect(mine.data.length).toBeGreaterThan(0);
    expect((await call(TOKENS.admin, feed(jobB))).status).toBe(200);
  });

  it("A and admin may cancel and resume A's job", async () => {
    for (const token of [TOKENS.a, TOKENS.admin]) {
      for (const [path, init] of WRITE_ROUTES(jobA)) expect((await call(token, path, init)).status, `${path} (${token})`).toBe(200);
    }
  });
});

describe("owners: the job list", () => {
  it("shows each tenant its own jobs only, in full pages; admin all, or one owner's with ?owner=", async () => {
    const olderA = await createAs(TOKENS.a, 1);
    const newerB = await createAs(TOKENS.b, 1);
    const newerA = await createAs(TOKENS.a, 1);
    const newestB = await createAs(TOKENS.b, 1);
    type List = { data: { id: string; owner: string }[]; has_more: boolean };
    const list = async (token: string, query = "") => (await (await call(token, `/v1/jobs${query}`)).json()) as List;

    const a = await list(TOKENS.a);
    expect(a.data.every((job) => job.owner === "team-a")).toBe(true);
    expect(a.data.map((job) => job.id)).toEqual(expect.arrayContaining([jobA, olderA, newerA]));
    // Paged after filtering: a page of 2 is two of A's jobs, newest first, though B's are newer.
    const page = await list(TOKENS.a, "?limit=2");
    expect(page.data.map((job) => job.id)).toEqual([newerA, olderA]);
    expect(page.has_more).toBe(true);
    const next = await list(TOKENS.a, `?limit=2&after=${olderA}`);
    expect(next.data.map((job) => job.id)).toEqual([jobA]);

    const b = await list(TOKENS.b, "?owner=team-a");
    expect(b.data.map((job) => job.id)).toEqual([newestB, newerB, jobB]);

    const all = (await list(TOKENS.admin)).data.map((job) => job.id);
    expect(all).toEqual(expect.arrayContaining([jobA, jobB, olderA, newerA, newerB, newestB]));
    expect((await list(TOKENS.admin, "?owner=team-b")).data.map((job) => job.id)).toEqual([newestB, newerB, jobB]);
    // The read token is team-a's too: the same list as A's.
    expect((await list(TOKENS.aRead)).data.map((job) => job.id)).toEqual(a.data.map((job) => job.id));
  });
});

describe("uploads and sessions stay with their tenant", () => {
  it("B cannot start a job from A's upload, nor list, replace or delete it", async () => {
    const put = await call(TOKENS.a, "/v1/files/rows.jsonl", { method: "PUT", body: rows(2), headers: { "content-type": "application/x-ndjson" } });
    expect(put.status).toBe(201);
    const key = ((await put.json()) as { rows_key: string }).rows_key;
    expect(key).toBe("uploads/team-a/rows.jsonl");

    const stolen = await call(TOKENS.b, "/v1/jobs", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ rows_key: key, environment: ENV }),
    });
    expect(stolen.status).toBe(404);
    expect(((await stolen.json()) as { error: { code: string } }).error.code).toBe("rows_not_found");
    const listed = (await (await call(TOKENS.b, "/v1/files")).json()) as { data: { rows_key: string }[] };
    expect(listed.data.map((file) => file.rows_key)).not.toContain(key);
    // B's DELETE of the same name is B's own (absent) file: A's is still there and still starts A's job.
    expect((await call(TOKENS.b, "/v1/files/rows.jsonl", { method: "DELETE" })).status).toBe(200);
    const mine = (await (await call(TOKENS.aRead, "/v1/files")).json()) as { data: { rows_key: string }[] };
    expect(mine.data.map((file) => file.rows_key)).toContain(key);
    const started = await call(TOKENS.a, "/v1/jobs", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ rows_key: key, environment: ENV }),
    });
    expect(started.status).toBe(201);
  });

  it("B's request with A's session cookie on /verify is refused, and A's session is intact", async () => {
    const row = { responses_create_params: { input: "add nothing" }, initial_count: 3, expected_count: 3 };
    const base = `/v1/environments/${STATEFUL}`;
    const json = (body: unknown, cookie?: string) => ({
      method: "POST",
      body: JSON.stringify(body),
      headers: { "content-type": "application/json", ...(cookie ? { cookie } : {}) },
    });
    const seeded = await call(TOKENS.a, `${base}/seed_session`, json(row));
    expect(seeded.status).toBe(200);
    const cookie = seeded.headers.get("set-cookie")!.split(";")[0]!;
    const response = { id: "resp_1", object: "response", created_at: 0, model: "m", output: [] };
    const theirs = await call(TOKENS.b, `${base}/verify`, json({ ...row, response }, cookie));
    expect(theirs.status).toBe(404);
    expect(((await theirs.json()) as { error: { code: string } }).error.code).toBe("unknown_session");
    const mine = await call(TOKENS.a, `${base}/verify`, json({ ...row, response }, cookie));
    expect(((await mine.json()) as { reward: number }).reward).toBe(1);
  });
});

describe("the read scope", () => {
  it("reads its tenant's jobs, uploads and environments; not another tenant's jobs", async () => {
    for (const path of [...READ_ROUTES(jobA), "/v1/jobs", "/v1/files", "/v1/environments"]) {
      expect((await call(TOKENS.aRead, path)).status, path).toBe(200);
    }
    expect(await answer(await call(TOKENS.aRead, `/v1/jobs/${jobB}`))).toEqual(asMissing(jobB));
  });

  it("403 insufficient_scope on every route that starts, cancels, resumes, uploads or deletes", async () => {
    const json = { headers: { "content-type": "application/json" } };
    const jobsOfA = async () => ((await (await call(TOKENS.aRead, "/v1/jobs")).json()) as { data: { id: string; status: string }[] }).data;
    const before = await jobsOfA();
    for (const [path, init] of [
      ["/v1/jobs", { method: "POST", ...json, body: JSON.stringify({ rows: [{ responses_create_params: { input: "hi" } }], environment: ENV }) }],
      ["/v1/jobs", { method: "POST", headers: { "content-type": "application/x-ndjson" }, body: rows(1) }],
      ...WRITE_ROUTES(jobA),
      ["/v1/files/x.jsonl", { method: "PUT", body: rows(1) }],
      ["/v1/files/x.jsonl", { method: "DELETE" }],
      // Taking groups from the feed moves the trainer's cursor: a read token may not.
      [`/v1/jobs/${jobA}/groups?wait=0`, { method: "GET" }],
      ["/run", { method: "POST", ...json, body: JSON.stringify({ responses_create_params: { input: "hi" } }) }],
      [`/v1/environments/${STATEFUL}/seed_session`, { method: "POST", ...json, body: "{}" }],
    ] as [string, RequestInit][]) {
      const refused = await answer(await call(TOKENS.aRead, path, init));
      expect(refused.status, `${init.method} ${path}`).toBe(403);
      expect(refused.error?.code, `${init.method} ${path}`).toBe("insufficient_scope");
    }
    // Nothing was started, and no job cancelled.
    const after = await jobsOfA();
    expect(after.map((job) => job.id)).toEqual(before.map((job) => job.id));
    expect(after.filter((job) => job.status === "cancelled").length).toBe(before.filter((job) => job.status === "cancelled").length);
  });
});

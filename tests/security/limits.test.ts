// Limits on what a caller may send and reach (workerd): body sizes (413), job sizes (400 naming the field), rows_key
// limited to the caller's own uploads, per-token rate limits (429 + Retry-After), upstream URLs never shown.
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobKeys } from "../../contracts/messages.js";
import type { Local } from "../../local/emulation.js";
import { fixtureRows } from "../helpers/fixtures.js";
import { startTestLocal } from "../helpers/local.js";

const ENV = "example_single_tool_call";
const AUTH = {
  alice: { authorization: "Bearer alice-token-0123456789-padded-to-32-characters-or-more" },
  bob: { authorization: "Bearer bob-token-0123456789-padded-to-32-characters-or-more" },
  ops: { authorization: "Bearer ops-token-0123456789-padded-to-32-characters-or-more" },
};

let local: Local;
beforeAll(async () => {
  local = await startTestLocal({
    environments: [ENV],
    apiTokens:
      "alice:alice-token-0123456789-padded-to-32-characters-or-more:run+jobs+model,bob:bob-token-0123456789-padded-to-32-characters-or-more:run+jobs,ops:ops-token-0123456789-padded-to-32-characters-or-more:admin",
    vars: {
      gateway: {
        MAX_BODY_BYTES: String(64 * 1024),
        MAX_UPLOAD_BYTES: String(256 * 1024),
        MAX_NUM_REPEATS: "8",
        MAX_JOB_ROWS: "5",
        MAX_JOB_ROLLOUTS: "12",
      },
      modelProxy: { MODEL_MAX_RETRIES: "0" },
    },
  });
});
afterAll(async () => {
  await local?.stop();
});

const row = () => fixtureRows(ENV)[0]!;
const jsonl = (rows: unknown[]) => `${rows.map((r) => JSON.stringify(r)).join("\n")}\n`;

async function send(path: string, init: RequestInit): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(`${local.url}${path}`, init);
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: the text.
  }
  return { status: response.status, body, headers: response.headers };
}

/** Waits until no job of this emulation is running (an operator's list sees every caller's jobs). */
async function jobsEnded(): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { body } = await send("/v1/jobs?limit=1000", { headers: AUTH.ops });
    const running = (body.data as { status: string }[]).filter((job) => job.status === "running");
    if (running.length === 0) return;
    if (Date.now() > deadline) throw new Error(`${running.length} job(s) still running after 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A body streamed in chunks, so it goes without a Content-Length (chunked transfer encoding). */
function chunked(text: string, size = 8192): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(at, at + size));
      at += size;
    },
  });
}

describe("body sizes: 413 in the error envelope, the connection still usable", () => {
  it("a /run body over MAX_BODY_BYTES, with a Content-Length", async () => {
    const big = { ...row(), padding: "x".repeat(100 * 1024) };
    const answer = await send(`/run?environment=${ENV}`, {
      method: "POST",
      headers: { ...AUTH.alice, "content-type": "application/json" },
      body: JSON.stringify(big),
    });
    expect(answer.status).toBe(413);
    expect(answer.body.error.code).toBe("body_too_large");
    expect(answer.body.error.message).toContain(String(64 * 1024));
    // The next request goes through.
    expect((await send("/v1/environments", { headers: AUTH.alice })).status).toBe(200);
  });

  it("the same body streamed without a Content-Length is cut off at the cap", async () => {
    const big = JSON.stringify({ ...row(), padding: "x".repeat(100 * 1024) });
    const answer = await send(`/run?environment=${ENV}`, {
      method: "POST",
      headers: { ...AUTH.alice, "content-type": "application/json" },
      body: chunked(big),
      duplex: "half",
    } as RequestInit);
    expect(answer.status).toBe(413);
    expect(answer.body.error.code).toBe("body_too_large");
  });

  it("a body under the cap, streamed, goes through", async () => {
    const answer = await send(`/run?environment=${ENV}`, {
      method: "POST",
      headers: { ...AUTH.alice, "content-type": "application/json" },
      body: chunked(JSON.stringify(row()), 64),
      duplex: "half",
    } as RequestInit);
    expect(answer.status).toBe(200);
    expect(typeof answer.body.reward).toBe("number");
  });

  it("the model routes and the environments have the JSON cap; uploads have their own", async () => {
    const padding = "x".repeat(100 * 1024);
    const model = await send("/v1/responses", {
      method: "POST",
      headers: { ...AUTH.alice, "content-type": "application/json" },
      body: JSON.stringify({ input: padding }),
    });
    expect(model.status).toBe(413);
    const tool = await send(`/v1/environments/${ENV}/get_weather`, {
      method: "POST",
      headers: { ...AUTH.alice, "content-type": "application/json" },
      body: JSON.stringify({ city: padding }),
    });
    expect(tool.status).toBe(413);
    // 100 KB of rows is under the upload cap (256 KiB)…
    const rows = Array.from({ length: 5 }, () => ({ ...row(), note: "y".repeat(20 * 1024) }));
    const job = await send(`/v1/jobs?environment=${ENV}`, {
      method: "POST",
      headers: { ...AUTH.alice, "content-type": "application/x-ndjson" },
      body: jsonl(rows),
    });
    expect(job.status).toBe(201);
    // …300 KB is not, with or without a Content-Length.
    const huge = jsonl([{ ...row(), note: "z".repeat(300 * 1024) }]);
    const refused = await send(`/v1/jobs?environment=${ENV}`, {
      method: "POST",
      headers: { ...AUTH.alice, "content-type": "application/x-ndjson" },
      body: huge,
    });
    expect(refused.status).toBe(413);
    const streamed = await send(`/v1/jobs?environment=${ENV}`, {
      method: "POST",
      headers: { ...AUTH.alice, "content-type": "application/x-ndjson" },
      body: chunked(huge),
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(413);
    const file = await send("/v1/files/huge.jsonl", { method: "PUT", headers: { ...AUTH.alice, "content-type": "application/x-ndjson" }, body: huge });
    expect(file.status).toBe(413);
  });
});

describe("job sizes: a 400 naming the field", () => {
  const create = (query: string, rows: unknown[]) =>
    send(`/v1/jobs?environment=${ENV}&${query}`, { method: "POST", headers: { ...AUTH.alice, "content-type": "application/x-ndjson" }, body: jsonl(rows) });

  it("num_repeats over MAX_NUM_REPEATS, or up to 2^53", async () => {
    for (const repeats of ["9", String(2 ** 53)]) {
      const answer = await create(`num_repeats=${repeats}`, [row()]);
      expect(answer.status, repeats).toBe(400);
      expect(answer.body.error.issues[0].path).toEqual(["num_repeats"]);
    }
    expect((await create("num_repeats=8", [row()])).status).toBe(201);
  });

  it("more rows than MAX_JOB_ROWS, or rows × repeats over MAX_JOB_ROLLOUTS", async () => {
    const six = await create("num_repeats=1", Array.from({ length: 6 }, row));
    expect(six.status).toBe(400);
    expect(six.body.error).toMatchObject({ code: "job_too_large", issues: [{ path: ["rows"] }] });
    expect(six.body.error.message).toContain("MAX_JOB_ROWS");
    const rollouts = await create("num_repeats=7", [row(), row()]);
    expect(rollouts.status).toBe(400);
    expect(rollouts.body.error.message).toContain("MAX_JOB_ROLLOUTS");
    expect((await create("num_repeats=6", [row(), row()])).status).toBe(201);
  });
});

describe("rows_key: the caller's own uploads only", () => {
  it("an upload is usable by its owner; another token, and another job's inputs, are as absent as a missing key", async () => {
    const uploaded = await send("/v1/files/weather.jsonl", {
      method: "PUT",
      headers: { ...AUTH.alice, "content-type": "application/x-ndjson" },
      body: jsonl([row(), row()]),
    });
    expect(uploaded.status).toBe(201);
    expect(uploaded.body).toMatchObject({ object: "file", name: "weather.jsonl", rows_key: "uploads/alice/weather.jsonl" });
    const listed = await send("/v1/files", { headers: AUTH.alice });
    expect(listed.body.data.map((f: { name: string }) => f.name)).toContain("weather.jsonl");
    expect((await send("/v1/files", { headers: AUTH.bob })).body.data).toEqual([]);

    const job = (auth: Record<string, string>, rowsKey: string) =>
      send("/v1/jobs", {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ environment: ENV, rows_key: rowsKey }),
      });
    const own = await job(AUTH.alice, uploaded.body.rows_key);
    expect(own.status).toBe(201);
    expect(own.body.counts.total).toBe(2);

    const foreign = await job(AUTH.bob, uploaded.body.rows_key);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe("rows_not_found");
    // Another job's materialized inputs: the old way to read any object in the bucket.
    const inputs = await job(AUTH.bob, jobKeys.inputsChunk(own.body.id, 0));
    expect(inputs.status).toBe(404);
    // An operator (admin) may name any object.
    expect((await job(AUTH.ops, uploaded.body.rows_key)).status).toBe(201);

    expect((await send("/v1/files/../x", { method: "PUT", headers: AUTH.alice, body: "{}\n" })).status).toBeGreaterThanOrEqual(400);
    const chunkedUpload = await send("/v1/files/streamed.jsonl", {
      method: "PUT",
      headers: AUTH.alice,
      body: chunked(jsonl([row()])),
      duplex: "half",
    } as RequestInit);
    expect(chunkedUpload.status).toBe(411);
  });
});

describe("the model's upstream URL", () => {
  it("appears in no answer: not in headers, not in error messages", async () => {
    const host = new URL(local.modelBaseUrl).host;
    const ok = await fetch(`${local.url}/v1/responses`, {
      method: "POST",
      headers: { ...AUTH.alice, "content-type": "application/json" },
      body: JSON.stringify({ input: "hi" }),
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("x-edgegym-upstream")).toBe("0");
    expect(await ok.text()).not.toContain(host);

    // The jobs the tests above created run in the background and call the model too: they must be done, or one of them
    // takes a scripted 503 meant for this /run (which then answers 200).
    await jobsEnded();
    local.simulator!.script({ status: 503, error: "overloaded" }, { status: 503, error: "overloaded" });
    const failed = await send(`/run?environment=${ENV}`, {
      method: "POST",
      headers: { ...AUTH.alice, "content-type": "application/json" },
      body: JSON.stringify(row()),
    });
    expect(failed.status).toBe(502);
    expect(failed.body.error.message).toContain("upstream #0");
    expect(JSON.stringify(failed.body)).not.toContain(host);
    expect([...failed.headers.values()].join(" ")).not.toContain(host);
  });
});

describe("per-token rate limits", () => {
  it("a token over its rate gets 429 with Retry-After; another token is not held back; after the wait it goes on", async () => {
    const limited = await startTestLocal({
      environments: [ENV],
      apiTokens: "fast:fast-token-0123456789-padded-to-32-characters-or-more:run,calm:calm-token-0123456789-padded-to-32-characters-or-more:run",
      vars: { gateway: { RATE_LIMIT_PER_SECOND: "1", RATE_LIMIT_BURST: "3" } },
    });
    try {
      const get = (token: string) => fetch(`${limited.url}/v1/environments`, { headers: { authorization: `Bearer ${token}` } });
      const statuses: number[] = [];
      let refused: Response | undefined;
      for (let i = 0; i < 5; i++) {
        const answer = await get("fast-token-0123456789-padded-to-32-characters-or-more");
        statuses.push(answer.status);
        if (answer.status === 429) refused ??= answer;
        else await answer.arrayBuffer();
      }
      expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
      expect(statuses.slice(3)).toContain(429);
      const retryAfter = Number(refused!.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(((await refused!.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
      // The other token has its own bucket.
      expect((await get("calm-token-0123456789-padded-to-32-characters-or-more")).status).toBe(200);
      await sleep(retryAfter * 1000 + 100);
      expect((await get("fast-token-0123456789-padded-to-32-characters-or-more")).status).toBe(200);
    } finally {
      await limited.stop();
    }
  });
});

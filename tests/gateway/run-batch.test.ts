// POST /run/batch in workerd: rows in, one NDJSON line per row as it ends, a closing line with the counts; bad rows are a
// 400 naming the row before anything runs; a row refused admission is an error line with retry_after_seconds.
import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatasetRow, EdgegymClient } from "../../client/index.js";
import type { Local } from "../../local/emulation.js";
import { fixtureRows } from "../helpers/fixtures.js";
import { startTestLocal } from "../helpers/local.js";

const ENV = "example_multi_step";
let local: Local;
let slow: Local;
beforeAll(async () => {
  [local, slow] = await Promise.all([
    startTestLocal({ environments: [ENV] }),
    // Every model turn takes 300 ms and one rollout may run at a time: a batch's other lanes are refused admission.
    startTestLocal({ environments: [ENV], simulator: { latencyMs: 300 }, vars: { gateway: { MAX_IN_FLIGHT: "1" } } }),
  ]);
});
afterAll(async () => {
  await Promise.all([local?.stop(), slow?.stop()]);
});

type Line = { index?: number; record?: Record<string, unknown>; error?: { status: number; code: string; retry_after_seconds?: number }; done?: boolean };

async function batch(on: Local, body: unknown, query = ""): Promise<{ status: number; type: string | null; lines: Line[]; text: string }> {
  const response = await fetch(`${on.url}/run/batch?environment=${ENV}${query}`, {
    method: "POST",
    headers: { authorization: `Bearer ${on.token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const lines =
    response.status === 200
      ? text
          .trimEnd()
          .split("\n")
          .map((l) => JSON.parse(l) as Line)
      : [];
  return { status: response.status, type: response.headers.get("content-type"), lines, text };
}

const rows = () => fixtureRows(ENV).slice(0, 5);

describe("a batch of rows", () => {
  it("answers one record per row, the same as /run gives, then the counts", async () => {
    const { status, type, lines } = await batch(local, { rows: rows() }, "&concurrency=2");
    expect(status).toBe(200);
    expect(type).toContain("application/x-ndjson");
    const done = lines.at(-1);
    expect(done).toEqual({ done: true, rows: 5, records: 5, errors: 0 });
    const records = lines.slice(0, -1);
    expect(records.map((l) => l.index).sort()).toEqual([0, 1, 2, 3, 4]);
    const single = (await (
      await fetch(`${local.url}/run?environment=${ENV}`, {
        method: "POST",
        headers: { authorization: `Bearer ${local.token}`, "content-type": "application/json" },
        body: JSON.stringify(rows()[3]),
      })
    ).json()) as Record<string, unknown>;
    const third = records.find((l) => l.index === 3)?.record ?? {};
    expect(third.reward).toBe(single.reward);
    expect(Object.keys(third).sort()).toEqual(Object.keys(single).sort());
    for (const line of records) expect(typeof line.record?.reward).toBe("number");
  });

  it("a bad row is a 400 naming it, and no row runs", async () => {
    const bad = [...rows().slice(0, 2), { responses_create_params: { input: 7 } }];
    const { status, text } = await batch(local, { rows: bad });
    expect(status).toBe(400);
    const envelope = JSON.parse(text) as { error: { code: string; issues: { path: (string | number)[] }[] } };
    expect(envelope.error.code).toBe("invalid_request");
    expect(envelope.error.issues[0]?.path.slice(0, 3)).toEqual(["rows", 2, "responses_create_params"]);
  });

  it("refuses an empty batch, an unknown option and too many rows with 400s", async () => {
    expect((await batch(local, { rows: [] })).status).toBe(400);
    expect((await batch(local, { rows: rows() }, "&concurency=2")).status).toBe(400);
    expect((await batch(local, { rows: rows() }, "&concurrency=0")).status).toBe(400);
    const tooMany = await batch(local, { rows: Array.from({ length: 1025 }, () => ({ responses_create_params: { input: "hi" } })) });
    expect(tooMany.status).toBe(400);
    expect(tooMany.text).toContain("rows");
  });

  it("a row refused admission is an error line with retry_after_seconds; the others still end", async () => {
    const { status, lines } = await batch(slow, { rows: rows().slice(0, 4) }, "&concurrency=4");
    expect(status).toBe(200);
    const done = lines.at(-1) as { done: true; rows: number; records: number; errors: number };
    expect(done.rows).toBe(4);
    expect(done.records + done.errors).toBe(4);
    const refused = lines.filter((l) => l.error);
    expect(refused.length).toBeGreaterThan(0);
    for (const line of refused) {
      expect(line.error?.status).toBe(503);
      expect(line.error?.code).toBe("over_capacity");
      expect(line.error?.retry_after_seconds).toBeGreaterThan(0);
    }
    expect(lines.filter((l) => l.record).length).toBe(done.records);
    expect(done.records).toBeGreaterThan(0);
  });
});

describe("the TypeScript client's batched mode", () => {
  it("keeps prompts and groups in order, one request for all of them", async () => {
    const client = new EdgegymClient({ url: local.url, token: local.token });
    const prompts = rows().slice(0, 2) as DatasetRow[];
    const { groups, failures } = await client.batch(prompts, { environment: ENV, groupSize: 3, batched: true, concurrency: 4 });
    expect(failures).toEqual([]);
    expect(groups.map((group) => group.map((r) => [r._ng_task_index, r._ng_rollout_index]))).toEqual([
      [
        [0, 0],
        [0, 1],
        [0, 2],
      ],
      [
        [1, 0],
        [1, 1],
        [1, 2],
      ],
    ]);
    for (const record of groups.flat()) expect(typeof record.reward).toBe("number");
  });

  it("sends refused rows again after Retry-After until every record is in", async () => {
    const client = new EdgegymClient({ url: slow.url, token: slow.token, maxRetries: 30 });
    const { groups, failures } = await client.batch(rows().slice(0, 2) as DatasetRow[], { environment: ENV, groupSize: 2, batched: true, concurrency: 4 });
    expect(failures).toEqual([]);
    expect(groups.map((group) => group.length)).toEqual([2, 2]);
  });
});

// The Python client (standard library only) against the same gateway: stream_batch and run_batch(batched=True).
const PYTHON_BATCH = `
import json, sys
from edgegym_client import Client
url, token, environment, slow_url, slow_token = sys.argv[1:6]
rows = [json.loads(line) for line in sys.stdin]
with Client(url, token) as client:
    seen = sorted(index for index, record in client.stream_batch(rows, environment=environment, concurrency=3) if isinstance(record["reward"], (int, float)))
    grouped = client.run_batch(rows[:2], group_size=2, batched=True, environment=environment)
with Client(slow_url, slow_token) as slow:
    retried = slow.run_batch(rows[:2], group_size=2, batched=True, environment=environment, concurrency=4)
print(json.dumps({"seen": seen, "grouped": [[r["_ng_task_index"], r["_ng_rollout_index"]] for r in grouped], "retried": len(retried)}))
`;

describe("the Python client's batched mode", () => {
  it("streams every row's record and keeps GRPO groups in order, retrying refused rows", async () => {
    const child = spawn("python3", ["-c", PYTHON_BATCH, local.url, local.token ?? "", ENV, slow.url, slow.token ?? ""], {
      env: { ...process.env, PYTHONPATH: path.resolve("integrations", "python"), PYTHONDONTWRITEBYTECODE: "1" },
    });
    child.stdin.end(
      rows()
        .map((row) => JSON.stringify(row))
        .join("\n"),
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code, stderr).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      seen: [0, 1, 2, 3, 4],
      grouped: [
        [0, 0],
        [0, 1],
        [1, 0],
        [1, 1],
      ],
      retried: 4,
    });
  }, 120_000);
});

// Slow clients against the real emulation (workerd), over raw sockets: 1,000 connections that never finish their body
// leave /run answering everyone else and get 408 after BODY_TIMEOUT_SECONDS; a 1 byte/s upload is cut with nothing
// kept; idle keep-alive connections and connections that never finish their headers are closed (by the local edge,
// local/edge.ts, with workerd's deadlines).
import net from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import { fixtureRows } from "../helpers/fixtures.js";
import { startTestLocal } from "../helpers/local.js";

const ENV = "example_single_tool_call";
const SLOW = 1000;
const LIMIT = 8;
const DEADLINE_S = 10;

let local: Local & { token?: string };
let port: number;
const sockets = new Set<net.Socket>();

beforeAll(async () => {
  local = await startTestLocal({
    environments: [ENV],
    // workerd's own deadlines (the local edge's defaults are 60 s and 65 s: local/edge.ts says why).
    headersTimeoutSeconds: 15,
    keepAliveTimeoutSeconds: 5,
    vars: {
      gateway: {
        MAX_IN_FLIGHT: String(LIMIT),
        BODY_TIMEOUT_SECONDS: String(DEADLINE_S),
        MIN_UPLOAD_BYTES_PER_SECOND: "64",
        RATE_LIMIT_PER_SECOND: "100000",
        RATE_LIMIT_BURST: "100000",
      },
    },
  });
  port = Number(new URL(local.url).port);
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await local?.stop();
});

/** A raw connection: what it was sent back (text), when the answer's first byte came, and when it closed. */
interface Raw {
  socket: net.Socket;
  text: () => string;
  answeredAt: () => number | undefined;
  closed: Promise<number>;
}

async function connect(): Promise<Raw> {
  const socket = net.connect({ host: "127.0.0.1", port });
  sockets.add(socket);
  let text = "";
  let answeredAt: number | undefined;
  socket.setEncoding("utf8");
  socket.on("data", (data: string) => {
    answeredAt ??= Date.now();
    text += data;
  });
  socket.on("error", () => undefined);
  const closed = new Promise<number>((resolve) => socket.on("close", () => resolve(Date.now())));
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  return { socket, text: () => text, answeredAt: () => answeredAt, closed };
}

function head(method: string, path: string, headers: Record<string, string>): string {
  const lines = [`${method} ${path} HTTP/1.1`, `Host: 127.0.0.1:${port}`, `Authorization: Bearer ${local.token}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return `${lines.join("\r\n")}\r\n\r\n`;
}

/** The status and JSON body of the raw answer (the first one on the connection). */
function answerOf(raw: Raw): { status: number; body: { error?: { code: string } } } {
  const text = raw.text();
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
  const start = text.indexOf("\r\n\r\n");
  const payload = text.slice(start + 4);
  const json = payload.slice(payload.indexOf("{"), payload.lastIndexOf("}") + 1);
  return { status, body: json ? JSON.parse(json) : {} };
}

async function run(): Promise<{ status: number; reward?: number; code?: string }> {
  const response = await fetch(`${local.url}/run?environment=${ENV}`, {
    method: "POST",
    headers: { authorization: `Bearer ${local.token}`, "content-type": "application/json" },
    body: JSON.stringify(fixtureRows(ENV)[0]),
    signal: AbortSignal.timeout(30_000),
  });
  const body = (await response.json()) as { reward?: number; error?: { code: string } };
  return { status: response.status, reward: body.reward, code: body.error?.code };
}

async function listFiles(): Promise<string[]> {
  const response = await fetch(`${local.url}/v1/files`, { headers: { authorization: `Bearer ${local.token}` } });
  return ((await response.json()) as { data: { name: string }[] }).data.map((file) => file.name);
}

/** Sends `text` one byte a second until the connection is answered or closed. */
async function trickle(raw: Raw, text: string): Promise<void> {
  for (const byte of text) {
    if (raw.answeredAt() !== undefined || raw.socket.destroyed) return;
    raw.socket.write(byte);
    await sleep(1000);
  }
}

describe("slow clients", () => {
  it(`${SLOW} connections that never finish their body: /run still answers everyone else; they get 408 after the deadline`, async () => {
    const partial = '{"responses_create_params": {"input": "never fin';
    const slow: { raw: Raw; sentAt: number }[] = [];
    for (let batch = 0; batch < SLOW; batch += 100) {
      const opened = await Promise.all(Array.from({ length: Math.min(100, SLOW - batch) }, connect));
      for (const raw of opened) {
        raw.socket.write(head("POST", `/run?environment=${ENV}`, { "Content-Type": "application/json", "Content-Length": "1000" }) + partial);
        slow.push({ raw, sentAt: Date.now() });
      }
    }
    const lastSent = Date.now();
    // Let every slow request reach the gateway (past its token and rate checks) before the others come.
    await sleep(1500);
    const runs: Awaited<ReturnType<typeof run>>[] = [];
    for (let round = 0; round < 2; round++) runs.push(...(await Promise.all(Array.from({ length: LIMIT }, run))));
    const runsDone = Date.now();
    expect(runs.map((r) => r.status)).toEqual(runs.map(() => 200));
    for (const answer of runs) expect(typeof answer.reward).toBe("number");
    // The slow ones were all still waiting while the others ran (the deadline had not passed for any).
    expect(runsDone - lastSent).toBeLessThan(DEADLINE_S * 1000);
    expect(slow.filter((s) => s.raw.answeredAt() !== undefined)).toHaveLength(0);

    // Each slow connection is answered 408 body_timeout once its deadline passes, and closed.
    const closedAt = await Promise.all(slow.map((s) => Promise.race([s.raw.closed, sleep(30_000).then(() => 0)])));
    expect(closedAt.filter((at) => at === 0)).toHaveLength(0);
    const answers = slow.map((s) => answerOf(s.raw));
    expect(answers.filter((a) => a.status !== 408)).toEqual([]);
    expect(new Set(answers.map((a) => a.body.error?.code))).toEqual(new Set(["body_timeout"]));
    const earliest = Math.min(...slow.map((s) => s.raw.answeredAt()! - s.sentAt));
    expect(earliest).toBeGreaterThanOrEqual(DEADLINE_S * 1000 - 50);
    // And /run answers as before afterwards.
    expect((await run()).status).toBe(200);
  });

  it("a 1 byte/s upload is cut with 408 and leaves nothing: no file, no job, no inputs, an earlier file intact", async () => {
    const rows = `${fixtureRows(ENV)
      .slice(0, 1)
      .map((row) => JSON.stringify(row))
      .join("\n")}\n`;
    const put = await fetch(`${local.url}/v1/files/kept.jsonl`, {
      method: "PUT",
      headers: { authorization: `Bearer ${local.token}`, "content-type": "application/x-ndjson" },
      body: rows,
    });
    expect(put.status).toBe(201);
    const bucket = await local.miniflare.getR2Bucket("BUCKET", "gateway");
    const jobsBefore = (await bucket.list({ prefix: "jobs/" })).objects.length;

    const newFile = await connect();
    newFile.socket.write(head("PUT", "/v1/files/slow.jsonl", { "Content-Type": "application/x-ndjson", "Content-Length": "1000" }));
    const overwrite = await connect();
    overwrite.socket.write(head("PUT", "/v1/files/kept.jsonl", { "Content-Type": "application/x-ndjson", "Content-Length": "1000" }));
    // A job upload whose first 150 rows come at once (its first inputs chunk is written), then a byte a second.
    const many = Array.from({ length: 150 }, (_, i) => JSON.stringify({ ...fixtureRows(ENV)[0], _ng_task_index: i })).join("\n");
    const job = await connect();
    job.socket.write(head("POST", `/v1/jobs?environment=${ENV}`, { "Content-Type": "application/x-ndjson", "Content-Length": String(many.length * 2) }));
    job.socket.write(`${many}\n`);
    const began = Date.now();
    await Promise.all([trickle(newFile, "x".repeat(60)), trickle(overwrite, "y".repeat(60)), trickle(job, "z".repeat(60))]);
    for (const raw of [newFile, overwrite, job]) {
      await Promise.race([raw.closed, sleep(10_000)]);
      const answer = answerOf(raw);
      expect(answer.status).toBe(408);
      expect(answer.body.error?.code).toBe("body_timeout");
      expect(raw.answeredAt()! - began).toBeLessThan(2.5 * DEADLINE_S * 1000);
      expect(raw.socket.destroyed || raw.socket.readableEnded).toBe(true);
    }
    expect(await listFiles()).toEqual(["kept.jsonl"]);
    expect(await (await bucket.get(`uploads/dev/kept.jsonl`))?.text()).toBe(rows);
    expect((await bucket.list({ prefix: "jobs/" })).objects.length).toBe(jobsBefore);
    const jobs = await fetch(`${local.url}/v1/jobs`, { headers: { authorization: `Bearer ${local.token}` } });
    expect(((await jobs.json()) as { data: unknown[] }).data).toEqual([]);
  });

  it("the gateway's port closes an idle keep-alive connection (~5 s) and one that never finishes its headers (~15 s), as workerd does", async () => {
    const idle = await connect();
    idle.socket.write(head("GET", "/health", {}));
    const headers = await connect();
    headers.socket.write(`GET /health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Never: fini`);
    const began = Date.now();
    const idleClosed = await Promise.race([idle.closed, sleep(30_000).then(() => 0)]);
    expect(answerOf(idle).status).toBe(200);
    expect(idleClosed - began).toBeGreaterThan(3_000);
    expect(idleClosed - began).toBeLessThan(10_000);
    const headersClosed = await Promise.race([headers.closed, sleep(30_000).then(() => 0)]);
    expect(headersClosed - began).toBeGreaterThan(10_000);
    expect(headersClosed - began).toBeLessThan(25_000);
  });
});

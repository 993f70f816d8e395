// Logs you can follow: every Worker writes structured JSON lines (request, job and rollout ids, environment, outcome,
// duration), never a token or a secret; the local emulation keeps them in .edgegym/logs and `edgegym logs` reads them.
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createLogger, formatLine } from "../../http/log.js";
import { type LogRecord, readLog } from "../../local/logs.js";
import { edgegym } from "../helpers/cli.js";
import { startTestLocal } from "../helpers/local.js";

const TOKEN = "tok-abcdef0123456789-padded-to-32-characters-or-more";
const MODEL_KEY = "sk-model-secret-0123456789";

describe("the logger", () => {
  it("writes one JSON object a line with its fields, an error as its message, and redacts secrets by name and by shape", () => {
    const lines: string[] = [];
    const log = createLogger("agent", "info", (line) => lines.push(line)).child({ job_id: "job_1" });
    log.debug("not at info");
    log.info("rollout done", { rollout_id: "job_1:0:0", outcome: "ok", duration_ms: 12, api_key: "k", headers: { authorization: "Bearer abc.def" } });
    log.error("failed", { error: new TypeError("boom with Bearer xyz123") });
    expect(lines).toHaveLength(2);
    const first = JSON.parse(lines[0]!);
    expect(first).toMatchObject({
      level: "info",
      worker: "agent",
      msg: "rollout done",
      job_id: "job_1",
      rollout_id: "job_1:0:0",
      outcome: "ok",
      duration_ms: 12,
      api_key: "[redacted]",
    });
    expect(first.headers).toEqual({ authorization: "[redacted]" });
    expect(JSON.parse(lines[1]!)).toMatchObject({ level: "error", error: "boom with [redacted]", error_name: "TypeError" });
    expect(formatLine("warn", "gateway", "x", { note: `key ${MODEL_KEY}` })).not.toContain(MODEL_KEY);
  });
});

describe("following a log file", () => {
  it("reads the matching lines, then those appended, until stopped; other lines are skipped", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "edgegym-follow-"));
    const file = path.join(dir, "session.jsonl");
    const line = (fields: Record<string, unknown>) => `${JSON.stringify({ level: "info", worker: "agent", msg: "m", ...fields })}\n`;
    writeFileSync(file, `${line({ job_id: "job_a" })}not json\n${line({ job_id: "job_b" })}`);
    const controller = new AbortController();
    const seen: LogRecord[] = [];
    const reading = (async () => {
      for await (const record of readLog(file, { job: "job_a" }, { follow: true, signal: controller.signal, pollMs: 20 })) {
        seen.push(record);
        if (seen.length === 1) appendFileSync(file, `${line({ job_id: "job_b" })}${line({ rollout_id: "job_a:0:1", level: "warn" })}`);
        if (seen.length === 2) controller.abort();
      }
    })();
    await reading;
    expect(seen.map((r) => [r.job_id, r.rollout_id, r.level])).toEqual([
      ["job_a", undefined, "info"],
      [undefined, "job_a:0:1", "warn"],
    ]);
    rmSync(dir, { recursive: true, force: true });
  });
});

describe("the local emulation's logs", () => {
  it("every Worker's lines land in the session file, tied to requests, jobs and rollouts, with no token or key in them", { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "edgegym-logs-"));
    const local = await startTestLocal({
      environments: ["example_single_tool_call"],
      logLevel: "info",
      logs: { dir },
      modelApiKey: MODEL_KEY,
      apiTokens: `logs-test:${TOKEN}:admin`,
    });
    const auth = { authorization: `Bearer ${TOKEN}` };
    let id = "";
    try {
      const created = await fetch(`${local.url}/v1/jobs?environment=example_single_tool_call&num_repeats=2`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/x-ndjson", "x-request-id": "req-from-client-1" },
        body: JSON.stringify({ responses_create_params: { input: "weather in sf?" } }),
      });
      id = ((await created.json()) as { id: string }).id;
      const polling = async () => {
        for (;;) {
          const info = (await (await fetch(`${local.url}/v1/jobs/${id}`, { headers: auth })).json()) as { status: string };
          if (info.status !== "running") return;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      };
      await polling();
      expect(created.headers.get("x-request-id")).toBe("req-from-client-1");
    } finally {
      await local.stop();
    }
    try {
      const text = readFileSync(local.logFile!, "utf8");
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(MODEL_KEY);
      const lines = text
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      for (const line of lines) expect(line).toMatchObject({ level: expect.any(String), worker: expect.any(String), msg: expect.any(String) });
      expect(lines).toContainEqual(
        expect.objectContaining({ worker: "gateway", msg: "request", request_id: "req-from-client-1", method: "POST", path: "/v1/jobs", outcome: 201 }),
      );
      const rollouts = lines.filter((l) => l.worker === "agent" && l.msg === "rollout done");
      expect(rollouts.map((l) => l.rollout_id).sort()).toEqual([`${id}-0-0`, `${id}-0-1`]);
      for (const line of rollouts)
        expect(line).toMatchObject({ job_id: id, environment: "example_single_tool_call", outcome: "ok", duration_ms: expect.any(Number) });
      expect(lines).toContainEqual(expect.objectContaining({ worker: "writer", msg: "job completed", job_id: id, outcome: "completed" }));

      // `edgegym logs --job` reads the same file back, only that job's lines.
      const shown = await edgegym(["logs", "--job", id, "--file", local.logFile!, "--json"]);
      expect(shown.code).toBe(0);
      const read = shown.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(read.length).toBeGreaterThanOrEqual(3);
      for (const line of read) expect(line.job_id === id || String(line.rollout_id).startsWith(`${id}-`)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

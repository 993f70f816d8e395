// `edgegym collect --tool-names`: a bad value is refused before anything runs, and with --direct each /run asks for the
// mode (`?tool_names=mcp`); a stub gateway on loopback records what the CLI sent. (The job path: tests/aws/bucket-tool-names.)
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../local/paths.js";

const ENV = "example_single_tool_call";
const BIN = path.join(PROJECT_ROOT, "bin", "edgegym.js");
const INPUT = path.join(PROJECT_ROOT, "environments", ENV, "data", "example.jsonl");
const run = promisify(execFile);

let server: Server;
let url: string;
let dir: string;
const runs: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "edgegym-collect-tool-names-"));
  // Just enough of a gateway for `collect --direct`: the environments, /run (a scored record), the metrics.
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const where = new URL(request.url ?? "/", "http://gateway");
      response.setHeader("content-type", "application/json");
      if (where.pathname === "/v1/environments") return response.end(JSON.stringify({ data: [{ name: ENV }] }));
      if (where.pathname === "/run") {
        runs.push(where.search);
        const row = JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>;
        return response.end(JSON.stringify({ ...row, response: { output: [] }, reward: 1 }));
      }
      if (where.pathname.endsWith("/aggregate_metrics")) return response.end(JSON.stringify({ agent_metrics: {}, key_metrics: {}, group_level_metrics: [] }));
      response.statusCode = 404;
      response.end(JSON.stringify({ error: { code: "not_found", message: where.pathname } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe("edgegym collect --tool-names", () => {
  it("refuses a mode it does not know, naming the ones it does", async () => {
    const output = path.join(dir, "bad.jsonl");
    const failed = await run(process.execPath, [BIN, "collect", "-i", INPUT, "-o", output, "--url", url, "--token", "t", "--tool-names", "mcpp"], {
      cwd: PROJECT_ROOT,
    }).catch((error: { code: number; stderr: string }) => error);
    expect("code" in failed ? failed.code : 0).toBe(1);
    expect("stderr" in failed ? failed.stderr : "").toContain(`option '--tool-names <mode>' argument 'mcpp' is invalid. Allowed choices are plain, mcp.`);
    expect(runs).toEqual([]);
  });

  it("with --direct: every /run carries tool_names=mcp", async () => {
    const output = path.join(dir, "direct.jsonl");
    const args = ["collect", "-i", INPUT, "-o", output, "-e", ENV, "--limit", "2", "--direct", "--url", url, "--token", "t", "--tool-names", "mcp"];
    await run(process.execPath, [BIN, ...args], { cwd: PROJECT_ROOT });
    expect(readFileSync(output, "utf8").trim().split("\n")).toHaveLength(2);
    expect(runs).toHaveLength(2);
    for (const search of runs) expect(new URLSearchParams(search).get("tool_names")).toBe("mcp");
  });
});

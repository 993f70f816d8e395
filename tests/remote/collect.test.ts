// `edgegym collect` on a remote NeMo Gym server configured by a file (EDGEGYM_REMOTE_CONFIG), as the README shows:
// the rollouts scored by the server, NeMo Gym's aggregate metrics from its own /aggregate_metrics; a bad file refused.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../local/paths.js";
import { type StandIn, startStandIn } from "./stand-in.js";

const exec = promisify(execFile);
let server: StandIn;
let dir: string;

async function edgegym(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [path.join(PROJECT_ROOT, "bin", "edgegym.js"), ...args], {
      cwd: dir,
      timeout: 240_000,
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

beforeAll(async () => {
  server = await startStandIn();
  dir = mkdtempSync(path.join(tmpdir(), "edgegym-remote-"));
  const row = {
    responses_create_params: { input: "Count once.", tools: [{ type: "function", name: "count", parameters: { type: "object", properties: {} } }] },
    expected_count: 1,
  };
  writeFileSync(path.join(dir, "rows.jsonl"), `${JSON.stringify(row)}\n${JSON.stringify({ ...row, expected_count: 2 })}\n`);
});
afterAll(() => server?.stop());

describe("edgegym collect on a remote environment", () => {
  it("collects through the server and writes NeMo Gym's aggregate metrics from its /aggregate_metrics", async () => {
    const config = path.join(dir, "remote.json");
    writeFileSync(config, JSON.stringify({ remotes: [{ name: "stand_in", baseUrls: [server.url], auth: { kind: "bearer", secret: "STAND_IN_TOKEN" } }] }));
    const result = await edgegym(["collect", "-e", "stand_in", "-i", "rows.jsonl", "-o", "out/rows.jsonl", "--num-repeats", "2"], {
      EDGEGYM_REMOTE_CONFIG: config,
      STAND_IN_TOKEN: "collect-secret-0123456789",
    });
    expect(result.code, result.stderr).toBe(0);
    const records = readFileSync(path.join(dir, "out", "rows.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(records.map((r) => r.reward)).toEqual([1, 1, 0, 0]);
    expect(records.map((r) => r.count)).toEqual([1, 1, 1, 1]);
    const aggregate = JSON.parse(readFileSync(path.join(dir, "out", "rows_aggregate_metrics.json"), "utf8"));
    expect(aggregate[0].agent_metrics).toEqual({ "mean/reward": 0.5, stand_in: true });
    expect(`${result.stdout}${result.stderr}`).not.toContain("collect-secret-0123456789");
  }, 240_000);

  it("takes the file from --remote-config as well, and a missing one is named", async () => {
    const config = path.join(dir, "remote-flag.json");
    writeFileSync(config, JSON.stringify({ remotes: [{ name: "stand_in", baseUrls: [server.url], auth: { kind: "bearer", secret: "STAND_IN_TOKEN" } }] }));
    const args = ["collect", "-e", "stand_in", "-i", "rows.jsonl", "-o", "out/flag.jsonl", "--remote-config", config];
    const result = await edgegym(args, { STAND_IN_TOKEN: "collect-secret-0123456789" });
    expect(result.code, result.stderr).toBe(0);
    expect(
      readFileSync(path.join(dir, "out", "flag.jsonl"), "utf8")
        .trim()
        .split("\n"),
    ).toHaveLength(2);
    const missing = await edgegym(
      ["collect", "-e", "stand_in", "-i", "rows.jsonl", "-o", "out/none.jsonl", "--remote-config", path.join(dir, "nope.json")],
      {},
    );
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("nope.json");
  }, 240_000);

  it("refuses a bad file naming it and the field, and a missing secret naming the secret", async () => {
    const config = path.join(dir, "bad.json");
    writeFileSync(config, JSON.stringify({ remotes: [{ name: "stand_in", baseUrls: ["not a url"] }] }));
    const bad = await edgegym(["collect", "-e", "stand_in", "-i", "rows.jsonl", "-o", "out/bad.jsonl"], { EDGEGYM_REMOTE_CONFIG: config });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("bad.json: remotes[0].baseUrls[0]: must be an http(s) URL");
    writeFileSync(config, JSON.stringify({ remotes: [{ name: "stand_in", baseUrls: [server.url], auth: { kind: "bearer", secret: "NOT_SET_ANYWHERE" } }] }));
    const missing = await edgegym(["collect", "-e", "stand_in", "-i", "rows.jsonl", "-o", "out/bad.jsonl"], { EDGEGYM_REMOTE_CONFIG: config });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("remotes[0].auth.secret: the secret NOT_SET_ANYWHERE is not set in the environment");
  }, 120_000);
});

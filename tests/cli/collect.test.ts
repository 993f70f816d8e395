// `edgegym collect` as a user runs it: a real process, against the gateway or its own local emulation.
import { execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import { PROJECT_ROOT } from "../../local/paths.js";
import { fixtureRows } from "../helpers/fixtures.js";
import { gatewayFetch, startTestLocal, tokenFor } from "../helpers/local.js";

const exec = promisify(execFile);
const BIN = path.join(PROJECT_ROOT, "bin", "edgegym.js");

/** The child's environment: the emulation's dev token when the command talks to one (`--url`). */
function tokenEnv(args: string[]): NodeJS.ProcessEnv {
  const url = args[args.indexOf("--url") + 1];
  return { ...process.env, ...(args.includes("--url") && url ? { EDGEGYM_TOKEN: tokenFor(url) } : {}) };
}

async function edgegym(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [BIN, ...args], { cwd: PROJECT_ROOT, timeout: 120_000, env: tokenEnv(args) });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

function lines(file: string): Record<string, unknown>[] {
  return readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

let local: Local;
let dir: string;
beforeAll(async () => {
  local = await startTestLocal();
  dir = mkdtempSync(path.join(tmpdir(), "edgegym-collect-"));
});
afterAll(async () => {
  await local?.stop();
});

describe("edgegym collect --url (a job through the queues)", () => {
  it("collects rows × repeats, reports the bad line, writes sorted records and metrics", async () => {
    const rows = fixtureRows("example_session_state_mgmt");
    const input = path.join(dir, "rows.jsonl");
    writeFileSync(
      input,
      `${[JSON.stringify(rows[0]), JSON.stringify(rows[1]), '{"responses_create_params": {"input": 7}}', JSON.stringify(rows[2])].join("\n")}\n`,
    );
    const output = path.join(dir, "out.jsonl");
    const result = await edgegym([
      "collect",
      "--url",
      local.url,
      "-e",
      "example_session_state_mgmt",
      "-i",
      input,
      "-o",
      output,
      "--num-repeats",
      "2",
      "-c",
      "3",
    ]);
    // The rest ran; a skipped row makes the exit 2 (see collect-check.test.ts for --allow-skipped).
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${input}:3: responses_create_params.input:`);

    const records = lines(output);
    expect(records.map((r) => [r._ng_task_index, r._ng_rollout_index])).toEqual([
      [0, 0],
      [0, 1],
      [1, 0],
      [1, 1],
      [3, 0],
      [3, 1],
    ]);
    expect(new Set(records.map((r) => r._ng_rollout_id)).size).toBe(6);
    for (const record of records) expect(record.reward).toBe(1);

    const metrics = JSON.parse(readFileSync(path.join(dir, "out.metrics.json"), "utf8"));
    expect(metrics.example_session_state_mgmt.agent_metrics["mean/reward"]).toBe(1);
    expect(result.stdout).toMatch(/mean\/reward\s+1/);
    expect(existsSync(path.join(dir, "out.failures.jsonl"))).toBe(false);
  });

  it("finds each row's environment from its agent_ref when --environment is not given", async () => {
    const input = path.join(dir, "mixed.jsonl");
    const weather = {
      ...fixtureRows("example_single_tool_call")[0],
      agent_ref: { type: "responses_api_agents", name: "example_single_tool_call_simple_agent" },
    };
    const counter = {
      ...fixtureRows("example_session_state_mgmt")[0],
      agent_ref: { type: "responses_api_agents", name: "example_session_state_mgmt_simple_agent" },
    };
    writeFileSync(input, `${JSON.stringify(weather)}\n${JSON.stringify(counter)}\n`);
    const output = path.join(dir, "mixed.jsonl.out");
    const result = await edgegym(["collect", "--url", local.url, "-i", input, "-o", output]);
    expect(result.code).toBe(0);
    expect(lines(output)).toHaveLength(2);
    expect(result.stdout).toContain("example_single_tool_call");
    expect(result.stdout).toContain("example_session_state_mgmt");
  });

  it("an unknown environment is one clear line and exit 1", async () => {
    const input = path.join(dir, "one.jsonl");
    writeFileSync(input, `${JSON.stringify(fixtureRows("example_single_tool_call")[0])}\n`);
    const result = await edgegym(["collect", "--url", local.url, "-e", "nope", "-i", input, "-o", path.join(dir, "x.jsonl")]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('no environment "nope"');
    expect(result.stderr).not.toContain("    at ");
  });

  it("a missing input file and a bad option say so", async () => {
    const missing = await edgegym(["collect", "--url", local.url, "-i", path.join(dir, "none.jsonl"), "-o", path.join(dir, "y.jsonl")]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("none.jsonl: no such file");
    const bad = await edgegym(["collect", "-i", "x", "-o", "y", "--num-repeats", "0"]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("--num-repeats");
  });
});

describe("edgegym collect --direct (through /run)", () => {
  it("collects rows × repeats with the same outputs as the queue path", async () => {
    const rows = fixtureRows("example_multi_step");
    const input = path.join(dir, "direct.jsonl");
    writeFileSync(input, `${[JSON.stringify(rows[0]), "[1, 2]", JSON.stringify(rows[1])].join("\n")}\n`);
    const output = path.join(dir, "direct-out.jsonl");
    const result = await edgegym(["collect", "--direct", "--url", local.url, "-e", "example_multi_step", "-i", input, "-o", output, "-n", "3"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${input}:2: Invalid input: expected object, received array`);
    expect(lines(output).map((r) => [r._ng_task_index, r._ng_rollout_index])).toEqual([
      [0, 0],
      [0, 1],
      [0, 2],
      [2, 0],
      [2, 1],
      [2, 2],
    ]);
    const metrics = JSON.parse(readFileSync(path.join(dir, "direct-out.metrics.json"), "utf8"));
    expect(metrics.example_multi_step.agent_metrics["mean/reward"]).toBeTypeOf("number");
  });
});

describe("edgegym jobs", () => {
  it("list, status, results, cancel and resume a job on the gateway", async () => {
    const input = path.join(dir, "jobs.jsonl");
    writeFileSync(
      input,
      `${fixtureRows("example_single_tool_call")
        .map((r) => JSON.stringify(r))
        .join("\n")}\n`,
    );
    const created = await gatewayFetch(`${local.url}/v1/jobs?environment=example_single_tool_call&num_repeats=2`, {
      method: "POST",
      body: readFileSync(input, "utf8"),
    });
    const id = ((await created.json()) as { id: string }).id;

    const listed = await edgegym(["jobs", "list", "--url", local.url]);
    expect(listed.stdout).toContain(id);
    let status = await edgegym(["jobs", "status", id, "--url", local.url, "--json"]);
    for (let i = 0; i < 100 && JSON.parse(status.stdout).status === "running"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      status = await edgegym(["jobs", "status", id, "--url", local.url, "--json"]);
    }
    expect(JSON.parse(status.stdout)).toMatchObject({ id, status: "completed", counts: { total: 10, done: 10 } });

    const out = path.join(dir, "jobs-results.jsonl");
    expect((await edgegym(["jobs", "results", id, "-o", out, "--url", local.url])).code).toBe(0);
    expect(lines(out)).toHaveLength(10);

    const resumed = await edgegym(["jobs", "resume", id, "--url", local.url]);
    expect(resumed.stdout).toContain("re-enqueued 0 rollout(s)");
    const cancelled = await edgegym(["jobs", "cancel", id, "--url", local.url]);
    expect(cancelled.stdout).toContain("completed");
    const unknown = await edgegym(["jobs", "status", "job_doesnotexist", "--url", local.url]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no job "job_doesnotexist"');
  });
});

describe("edgegym collect without --url", () => {
  it("starts the local emulation itself, collects, and stops it", async () => {
    const output = path.join(dir, "own.jsonl");
    const input = path.join(PROJECT_ROOT, "environments", "example_multi_step", "data", "example.jsonl");
    const result = await edgegym(["collect", "-e", "example_multi_step", "-i", input, "-o", output, "--limit", "2"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("starting the local emulation");
    expect(lines(output).map((r) => r._ng_task_index)).toEqual([0, 1]);
  });
});

describe("Ctrl-C during edgegym collect", () => {
  it("leaves the job running on the gateway and says how to follow it", async () => {
    const slow = await startTestLocal({
      environments: ["example_single_tool_call"],
      simulator: { latencyMs: 300 },
      vars: { agent: { BATCH_CONCURRENCY: "1" } },
    });
    try {
      const input = path.join(dir, "slow.jsonl");
      writeFileSync(
        input,
        `${fixtureRows("example_single_tool_call")
          .map((r) => JSON.stringify(r))
          .join("\n")}\n`,
      );
      const child = spawn(
        process.execPath,
        [BIN, "collect", "--url", slow.url, "-e", "example_single_tool_call", "-i", input, "-o", path.join(dir, "slow-out.jsonl"), "-n", "4"],
        { cwd: PROJECT_ROOT, env: { ...process.env, EDGEGYM_TOKEN: tokenFor(slow.url) } },
      );
      let stderr = "";
      const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
      await new Promise<void>((resolve) => {
        child.stderr.on("data", (chunk: Buffer) => {
          stderr += chunk.toString();
          if (/job job_\w+: 20 rollouts/.test(stderr)) resolve();
        });
      });
      child.kill("SIGINT");
      expect(await exited).toBe(130);
      const id = /job (job_\w+):/.exec(stderr)![1]!;
      expect(stderr).toContain(`edgegym jobs status ${id} --url ${slow.url}`);
      const info = (await (await gatewayFetch(`${slow.url}/v1/jobs/${id}`)).json()) as { status: string };
      expect(info.status).toBe("running");
    } finally {
      await slow.stop();
    }
  });
});

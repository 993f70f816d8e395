// A collection stopped from outside, as a user stops one: the job cancelled under `collect` (exit 3, not a metrics
// table), and Ctrl-C on a local `collect` (the whole process group signalled, as a terminal does: exit 130, message).
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../../local/paths.js";
import { startSimulator, type Simulator } from "../../local/simulator/server.js";
import { edgegym, tokenEnv } from "../helpers/cli.js";
import { FIXTURES, readJsonl } from "../helpers/fixtures.js";
import { startTestLocal } from "../helpers/local.js";

const dir = mkdtempSync(path.join(tmpdir(), "edgegym-stop-"));
const input = path.join(FIXTURES, "example_single_tool_call", "example.jsonl");
const keys = (records: Record<string, unknown>[]) => records.map((r) => [Number(r._ng_task_index), Number(r._ng_rollout_index)]);
const sorted = (pairs: number[][]) => [...pairs].sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!);
const all = Array.from({ length: 5 }, (_, t) => [0, 1, 2, 3].map((r) => [t, r])).flat();

/** The CLI as a child process (its own process group, so a test can signal the group as a terminal's Ctrl-C does). */
function start(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [path.join(PROJECT_ROOT, "bin", "edgegym.js"), ...args], { cwd: PROJECT_ROOT, env, detached: true });
  const output = { stdout: "", stderr: "" };
  child.stdout.on("data", (chunk: Buffer) => (output.stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output.stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output, exited };
}

// The local emulation bundles every environment (41 now) before its first record: a start-up can take a minute or more.
async function until(what: string, check: () => boolean, said: { stderr: string }, ms = 150_000): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((resolve) => setTimeout(resolve, 100))) if (check()) return;
  throw new Error(`timed out waiting for ${what}; the command said: ${said.stderr}`);
}

const linesIn = (file: string) =>
  existsSync(file)
    ? readFileSync(file, "utf8")
        .split("\n")
        .filter((line) => line.trim()).length
    : 0;
const jobOf = (stderr: string) => /job (job_\w+): 20 rollouts/.exec(stderr)?.[1];
const killGroup = (child: ChildProcess) => process.kill(-child.pid!, "SIGINT");

describe("a job cancelled while collect follows it", () => {
  it("--url: exit 3, says so with how many landed, writes them in order, no metrics table; --resume collects the rest", { timeout: 300_000 }, async () => {
    const slow = await startTestLocal({
      environments: ["example_single_tool_call"],
      // One rollout at a time, each about 2 s (two model calls): the cancel finds the job part-way.
      simulator: { latencyMs: 1_000 },
      vars: { agent: { BATCH_CONCURRENCY: "1", RUNNER_SHARDS: "1", RUNNER_MAX_IN_FLIGHT: "1" } },
    });
    try {
      const out = path.join(dir, "cancelled.jsonl");
      const args = ["collect", "--url", slow.url, "-e", "example_single_tool_call", "-i", input, "-o", out, "-n", "4"];
      const run = start(args, tokenEnv(args));
      await until("two records", () => linesIn(out) >= 2, run.output);
      const id = jobOf(run.output.stderr)!;
      expect((await edgegym(["jobs", "cancel", id, "--url", slow.url])).code).toBe(0);
      expect(await run.exited).toBe(3);
      const records = readJsonl(out);
      expect(records.length).toBeGreaterThanOrEqual(2);
      expect(records.length).toBeLessThan(20);
      expect(keys(records)).toEqual(sorted(keys(records)));
      expect(run.output.stderr).toContain(
        `job ${id} was cancelled: ${records.length} of 20 rollouts landed, written in order to ${out}; run the same command with --resume to collect only the rest.`,
      );
      expect(run.output.stdout).not.toContain("rollouts:");
      expect(run.output.stdout).not.toContain("aggregate metrics");

      // The rest, quickly: the job is cancelled, the resumed run's own job collects what is missing.
      slow.simulator!.configure({ latencyMs: 0 });
      const resumed = await edgegym([...args, "--resume"]);
      expect(resumed.code).toBe(0);
      expect(keys(readJsonl(out))).toEqual(all);
    } finally {
      await slow.stop();
    }
  });
});

describe("a local collect (no --url), stopped part-way", () => {
  let model: Simulator;
  beforeAll(async () => {
    // Each model call 0.3-4 s: the 20 rollouts land over several seconds, so the stop finds the job part-way.
    model = await startSimulator({ latencyMs: { min: 300, max: 4_000 } });
  });
  afterAll(async () => {
    await model?.close();
  });
  const env = () => ({ ...process.env, EDGEGYM_MODEL_URL: `${model.url}/v1`, EDGEGYM_TOKEN: "stop-test-token-padded-to-32-characters-or-more" });

  it("Ctrl-C: exit 130 with the message and the resume hint, the output in order; --resume collects the rest", { timeout: 300_000 }, async () => {
    const out = path.join(dir, "local-interrupted.jsonl");
    const args = ["collect", "-e", "example_single_tool_call", "-i", input, "-o", out, "-n", "4"];
    const run = start(args, env());
    await until("two records", () => linesIn(out) >= 2, run.output);
    killGroup(run.child);
    expect(await run.exited).toBe(130);
    const id = jobOf(run.output.stderr);
    expect(run.output.stderr).toContain(
      `interrupted: job ${id} stops with this command's local emulation; the rollouts it finished are in ${out}: run the same command with --resume to collect only the rest.`,
    );
    const partial = readJsonl(out);
    expect(partial.length).toBeGreaterThanOrEqual(2);
    expect(partial.length).toBeLessThan(20);
    expect(keys(partial)).toEqual(sorted(keys(partial)));

    // Resumed with the emulation's own simulator (no EDGEGYM_MODEL_URL): the same command, a quick model.
    const resumed = await edgegym([...args, "--resume"]);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain(`: ${20 - partial.length} rollouts`);
    const records = readJsonl(out);
    expect(keys(records)).toEqual(all);
    for (const kept of partial) expect(records).toContainEqual(kept);
  });

  it("cancelled (`jobs cancel` on the emulation it names): exit 3 and the same account as --url", { timeout: 300_000 }, async () => {
    const out = path.join(dir, "local-cancelled.jsonl");
    const run = start(["collect", "-e", "example_single_tool_call", "-i", input, "-o", out, "-n", "4"], env());
    await until("two records", () => linesIn(out) >= 2, run.output);
    const url = /local emulation: (http:\/\/\S+) /.exec(run.output.stderr)?.[1];
    const id = jobOf(run.output.stderr)!;
    expect(url).toBeDefined();
    expect((await edgegym(["jobs", "cancel", id, "--url", url!, "--token", "stop-test-token-padded-to-32-characters-or-more"])).code).toBe(0);
    expect(await run.exited).toBe(3);
    const records = readJsonl(out);
    expect(records.length).toBeLessThan(20);
    expect(keys(records)).toEqual(sorted(keys(records)));
    expect(run.output.stderr).toContain(`job ${id} was cancelled: ${records.length} of 20 rollouts landed, written in order to ${out}`);
  });
});

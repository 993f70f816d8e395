// The bench's peer scenario where no NeMo Gym runs: without an installation it says how to get one, emits null figures and
// exits 0; a directory that is not a usable installation is refused, naming what it lacks (bench/run.ts passing the flag).
import { execFile } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import type { ScenarioReport } from "../../bench/lib/report.js";
import { PROJECT_ROOT } from "../../local/paths.js";

const exec = promisify(execFile);
const work = mkdtempSync(path.join(os.tmpdir(), "edgegym-peer-test-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The environment without any NeMo Gym named by variable. */
function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { BENCH_NEMO_GYM_DIR: _, ...rest } = process.env;
  return { ...rest, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", ...extra };
}

async function run(script: string, args: string[], extra: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await exec(process.execPath, ["--import", "tsx", path.join(PROJECT_ROOT, "bench", ...script.split("/")), ...args], {
      cwd: PROJECT_ROOT,
      env: env(extra),
      timeout: 120_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

/** A directory shaped like a NeMo Gym checkout whose CLI does not start (as one installed without its dependencies). */
function brokenInstall(): string {
  const dir = path.join(work, "broken");
  const bin = path.join(dir, ".venv", "bin");
  mkdirSync(bin, { recursive: true });
  for (const name of ["python", "ng_run", "ng_collect_rollouts"]) writeFileSync(path.join(bin, name), "#!/bin/sh\nexit 0\n");
  writeFileSync(path.join(bin, "ng_version"), "#!/bin/sh\necho \"ModuleNotFoundError: No module named 'psutil'\" >&2\nexit 1\n");
  for (const name of ["python", "ng_run", "ng_collect_rollouts", "ng_version"]) chmodSync(path.join(bin, name), 0o755);
  for (const file of [
    "responses_api_models/vllm_model/configs/vllm_model.yaml",
    "resources_servers/example_single_tool_call/configs/example_single_tool_call.yaml",
    "resources_servers/example_multi_step/configs/example_multi_step.yaml",
  ]) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), "{}\n");
  }
  mkdirSync(path.join(dir, "responses_api_agents", "simple_agent"), { recursive: true });
  return dir;
}

describe("npm run bench's peer scenario without a NeMo Gym to run", () => {
  it("with none named: one line saying how to get one, every figure null with a note, exit 0", async () => {
    const report = path.join(work, "skip.json");
    const result = await run("scenarios/peer.ts", ["--quick"], { BENCH_REPORT: report });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("peer: no NeMo Gym installation named, skipped.");
    expect(result.stdout).toContain("git clone https://github.com/NVIDIA-NeMo/Gym.git");
    expect(result.stdout).toContain("uv sync");
    expect(result.stdout).toContain("npm run bench -- --only peer --nemo-gym <dir");
    const written = JSON.parse(readFileSync(report, "utf8")) as ScenarioReport;
    expect(written.scenario).toBe("peer");
    expect(written.figures.map((f) => f.id)).toEqual(
      ["single-step", "multi-step"].flatMap((shape) =>
        ["edgegym.rollouts_per_s", "edgegym.cpu_ms_per_rollout", "nemo_gym.rollouts_per_s", "nemo_gym.cpu_ms_per_rollout", "cpu_ratio", "rate_ratio"].map(
          (name) => `peer.${shape}.${name}`,
        ),
      ),
    );
    for (const figure of written.figures) {
      expect(figure.value).toBeNull();
      expect(figure.note).toBe("skipped: no NeMo Gym installation named (--nemo-gym <dir>)");
    }
  }, 120_000);

  it("an empty directory: exit 2, naming the venv's python and NeMo Gym's commands it lacks, no report", async () => {
    const dir = path.join(work, "empty");
    mkdirSync(dir);
    const report = path.join(work, "empty.json");
    const result = await run("scenarios/peer.ts", ["--nemo-gym", dir], { BENCH_REPORT: report });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--nemo-gym ${dir}: not a usable NeMo Gym installation; missing:`);
    expect(result.stderr).toContain(path.join(dir, ".venv", "bin", "python"));
    expect(result.stderr).toContain(path.join(dir, ".venv", "bin", "ng_run"));
    expect(result.stderr).toContain(path.join(dir, ".venv", "bin", "ng_collect_rollouts"));
    expect(result.stderr).toContain(path.join(dir, "responses_api_agents", "simple_agent"));
    expect(existsSync(report)).toBe(false);
  }, 120_000);

  it("a checkout whose CLI does not start and no uv: both named (BENCH_NEMO_GYM_DIR names it)", async () => {
    const dir = brokenInstall();
    const result = await run("scenarios/peer.ts", ["--quick"], { BENCH_NEMO_GYM_DIR: dir, PATH: path.dirname(process.execPath) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("uv (on PATH or in .venv/bin: ng_run builds each server's venv with it)");
    expect(result.stderr).toContain(`${path.join(dir, ".venv", "bin", "ng_version")} failed (ModuleNotFoundError: No module named 'psutil')`);
  }, 120_000);

  it("a directory that does not exist, through npm run bench: run.ts passes --nemo-gym on and reports the scenario failed", async () => {
    const missing = path.join(work, "no-such-dir");
    const out = path.join(work, "results.json");
    const result = await run("run.ts", ["--only", "peer", "--nemo-gym", missing, "--out", out]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`--nemo-gym ${missing}: not a usable NeMo Gym installation; missing:\n  ${missing} (no such directory)`);
    expect(result.stdout).toContain("peer exited with code 2: its figures are missing from this run");
    const results = JSON.parse(readFileSync(out, "utf8")) as { figures: { id: string; value: unknown }[] };
    expect(results.figures).toEqual([expect.objectContaining({ id: "peer.ran", value: null })]);
  }, 180_000);
});

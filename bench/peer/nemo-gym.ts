// A NeMo Gym installation for the peer scenario: where it comes from, what it must hold, its stack started with its own
// CLI (ng_run) against the bench's simulator, and rollouts collected with its own collection command (ng_collect_rollouts).
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";

/** The environment variable that names a NeMo Gym installation when `--nemo-gym <dir>` is not given. */
export const NEMO_GYM_DIR_ENV = "BENCH_NEMO_GYM_DIR";

/** The one line printed when no installation is named. */
export const HOW_TO_GET_ONE =
  "peer: no NeMo Gym installation named, skipped. To compare: git clone https://github.com/NVIDIA-NeMo/Gym.git nemo-gym && " +
  "(cd nemo-gym && uv venv --python 3.13.14 && uv sync), then npm run bench -- --only peer --nemo-gym <dir of that clone>";

/** Each shape's NeMo Gym config (resources server + its simple agent) and the agent's name in it. */
export const NEMO_GYM_SHAPES = {
  "single-step": { environment: "example_single_tool_call", agent: "example_single_tool_call_simple_agent" },
  "multi-step": { environment: "example_multi_step", agent: "example_multi_step_simple_agent" },
} as const;
export type PeerShape = keyof typeof NEMO_GYM_SHAPES;

const MODEL_CONFIG = "responses_api_models/vllm_model/configs/vllm_model.yaml";
const AGENT_DIR = "responses_api_agents/simple_agent";
const configOf = (environment: string) => `resources_servers/${environment}/configs/${environment}.yaml`;

export interface NemoGymInstall {
  dir: string;
  bin: string;
}

/** The directory named by `--nemo-gym <dir>` or BENCH_NEMO_GYM_DIR; undefined when neither names one. */
export function namedDir(argv: readonly string[], env: NodeJS.ProcessEnv): string | undefined {
  const at = argv.indexOf("--nemo-gym");
  if (at >= 0) {
    const value = argv[at + 1];
    if (!value || value.startsWith("--")) throw new Error("--nemo-gym: expected a directory after it (a NeMo Gym checkout with its .venv)");
    return path.resolve(value);
  }
  const given = env[NEMO_GYM_DIR_ENV];
  return given ? path.resolve(given) : undefined;
}

/**
 * What `dir` lacks to run the comparison, each named: the venv's Python, NeMo Gym's CLI, the configs and servers used,
 * uv (ng_run builds each server's venv with it), and whether the CLI starts at all (its dependencies installed).
 */
export function missingFrom(dir: string, pathEnv = process.env.PATH ?? ""): string[] {
  if (!existsSync(dir)) return [`${dir} (no such directory)`];
  const bin = path.join(dir, ".venv", "bin");
  const wanted = [
    path.join(bin, "python"),
    path.join(bin, "ng_run"),
    path.join(bin, "ng_collect_rollouts"),
    path.join(dir, MODEL_CONFIG),
    path.join(dir, AGENT_DIR),
    ...Object.values(NEMO_GYM_SHAPES).map((s) => path.join(dir, configOf(s.environment))),
  ];
  const missing = wanted.filter((file) => !existsSync(file));
  const withUv = [bin, ...pathEnv.split(path.delimiter)].some((p) => p && existsSync(path.join(p, "uv")));
  if (!withUv) missing.push("uv (on PATH or in .venv/bin: ng_run builds each server's venv with it)");
  if (!existsSync(path.join(bin, "ng_version"))) return missing;
  try {
    execFileSync(path.join(bin, "ng_version"), [], { cwd: dir, stdio: ["ignore", "pipe", "pipe"], timeout: 60_000 });
  } catch (error) {
    const stderr = String((error as { stderr?: Buffer }).stderr ?? "").trim();
    const last = stderr.split("\n").at(-1) ?? String(error);
    missing.push(`a working NeMo Gym CLI: ${path.join(bin, "ng_version")} failed (${last}); install its dependencies (uv sync)`);
  }
  return missing;
}

/** The installation at `dir`, or an error naming everything it lacks. */
export function nemoGymInstall(dir: string): NemoGymInstall {
  const missing = missingFrom(dir);
  if (missing.length > 0) throw new Error(`--nemo-gym ${dir}: not a usable NeMo Gym installation; missing:\n  ${missing.join("\n  ")}`);
  return { dir, bin: path.join(dir, ".venv", "bin") };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

export interface NemoGymStack {
  /** ng_run's pid: its descendants are NeMo Gym's servers. */
  pid: number;
  /** `count` rollouts of a shape from `rowsFile` (repeated `repeats` times), written to `outFile`; resolves when written. */
  collect(shape: PeerShape, rowsFile: string, repeats: number, outFile: string, parallel: number): Promise<{ seconds: number }>;
  stop(): Promise<void>;
}

function stopped(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once("exit", () => resolve()));
}

/** NeMo Gym's stack (both resources servers, their simple agents, its vLLM model server at `modelUrl`) through ng_run. */
export async function startNemoGym(install: NemoGymInstall, modelUrl: string, model: string, say: (line: string) => void): Promise<NemoGymStack> {
  const port = await freePort();
  const common = [`+head_server.host=127.0.0.1`, `+head_server.port=${port}`];
  const configs = [...Object.values(NEMO_GYM_SHAPES).map((s) => configOf(s.environment)), MODEL_CONFIG];
  const args = [
    `+config_paths=[${configs.join(",")}]`,
    `+policy_base_url=${modelUrl}`,
    "+policy_api_key=edgegym-bench",
    `+policy_model_name=${model}`,
    "+skip_venv_if_present=true",
    ...common,
  ];
  // Its own process group: stopping it stops every server it started.
  const child = spawn(path.join(install.bin, "ng_run"), args, { cwd: install.dir, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      log = (log + chunk.toString("utf8")).slice(-20_000);
      if (/All \d+ \/ \d+ servers ready/.test(log)) resolve();
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`ng_run exited (${code}) before its servers were ready:\n${log.slice(-3000)}`)));
  });
  // The first start builds each server's venv (uv): minutes.
  const limit = setTimeout(() => child.kill("SIGTERM"), 20 * 60_000);
  try {
    await ready;
  } catch (error) {
    clearTimeout(limit);
    throw error;
  }
  clearTimeout(limit);
  say(`NeMo Gym's servers are ready (ng_run pid ${child.pid}, head server port ${port})`);
  const stop = async () => {
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      // Already gone: nothing to stop.
    }
    await stopped(child);
  };
  process.once("exit", () => void stop());
  return {
    pid: child.pid!,
    async collect(shape, rowsFile, repeats, outFile, parallel) {
      const started = performance.now();
      const collectArgs = [
        `+agent_name=${NEMO_GYM_SHAPES[shape].agent}`,
        `+input_jsonl_fpath=${rowsFile}`,
        `+output_jsonl_fpath=${outFile}`,
        `+num_repeats=${repeats}`,
        `+num_samples_in_parallel=${parallel}`,
        ...common,
      ];
      const collector = spawn(path.join(install.bin, "ng_collect_rollouts"), collectArgs, { cwd: install.dir, stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      collector.stdout!.on("data", (c: Buffer) => (out = (out + c.toString("utf8")).slice(-5000)));
      collector.stderr!.on("data", (c: Buffer) => (out = (out + c.toString("utf8")).slice(-5000)));
      const code = await new Promise<number | null>((resolve) => collector.once("exit", resolve));
      const seconds = (performance.now() - started) / 1000;
      if (code !== 0) throw new Error(`ng_collect_rollouts exited (${code}):\n${out.slice(-3000)}`);
      return { seconds };
    },
    stop,
  };
}

/** The records ng_collect_rollouts wrote: how many, their model turns and reward. */
export function readRollouts(file: string, turnsOf: (record: unknown) => number): { rollouts: number; turns: number; reward: number } {
  const tally = { rollouts: 0, turns: 0, reward: 0 };
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (!line.trim()) continue;
    const record = JSON.parse(line) as { reward?: unknown };
    tally.rollouts++;
    tally.turns += turnsOf(record);
    tally.reward += typeof record.reward === "number" ? record.reward : 0;
  }
  return tally;
}

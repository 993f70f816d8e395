// CPU milliseconds per rollout of the local emulation (its Node process + the workerd processes Miniflare starts), for
// 1-tool and 10-turn rollouts through /run and the jobs path; the simulator's CPU and the load generator's apart.
//
//   npx tsx bench/cpu.bench.ts [--quick] [--reps N] [--root <checkout>]... [--out <file.json>] [--compare <earlier.json>]
//   BENCH_QUICK=1 npm run bench -- cpu       (quick, through bench/run.ts, which passes no flags on)
//
// Every --root is another checkout of edgegym (npm ci'd): its local/emulation.ts runs in its own child process, so one
// run measures before and after side by side, the first root being the baseline (default: this checkout). Processes:
//   this one      the load generator (plain fetch) and the bookkeeping: "client" CPU
//   simulator     local/simulator/main.ts of this checkout, a child: "simulator" CPU, from /proc/<pid>/stat
//   host per root startLocal() of that checkout: "node" CPU from its process.cpuUsage() (over IPC), and "workerd" CPU
//                 from /proc/<pid>/stat of its descendants; "edgegym" CPU = node + workerd (+ any other descendant:
//                 esbuild's service, idle once the bundles are built).
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { clockTicksPerSecond, descendants, readStat, snapshot, ticksBetween, type TickSnapshot } from "./cpu/proc.js";
import { BENCH_ROOT, startHost, startSimulatorProcess, type HostProcess, type SimulatorProcess } from "./cpu/processes.js";
import { jobTally, runDirect, runJob, SINGLE_TOOL, TEN_TURNS, type Shape, type Tally } from "./cpu/workload.js";

const { values } = parseArgs({
  options: {
    quick: { type: "boolean", default: process.env.BENCH_QUICK === "1" },
    root: { type: "string", multiple: true },
    out: { type: "string", default: path.join(BENCH_ROOT, "bench", "results-cpu.json") },
    compare: { type: "string" },
    reps: { type: "string", default: "3" },
    /** Only the scenarios whose name contains this (e.g. "1-tool", "jobs"). */
    only: { type: "string" },
  },
});
const roots = (values.root?.length ? values.root : [BENCH_ROOT]).map((root) => path.resolve(root));
if (values.compare && !existsSync(values.compare)) throw new Error(`--compare: no file ${values.compare}`);
const CONCURRENCY = 32;
const REPS = Number(values.reps);
if (!Number.isInteger(REPS) || REPS < 1) throw new Error(`--reps must be a positive integer, got "${values.reps}"`);
const JOB_ROWS = 16;
const POLL_MS = 100;
// Rollouts per measured window: full gives several seconds of CPU per window, so /proc's 10 ms clock ticks weigh
// under 1%; quick about a second (1-2%), well under this shared machine's run-to-run noise.
const SIZES = values.quick ? { "1-tool": 256, "10-turn": 64 } : { "1-tool": 1024, "10-turn": 256 };

interface Scenario {
  path: "run" | "jobs";
  shape: Shape;
  rollouts: number;
}
const key = (s: Scenario) => `${s.path === "run" ? `/run c=${CONCURRENCY}` : "jobs"} ${s.shape.name}`;
const scenarios: Scenario[] = (["run", "jobs"] as const)
  .flatMap((p) => [SINGLE_TOOL, TEN_TURNS].map((shape) => ({ path: p, shape, rollouts: SIZES[shape.name as keyof typeof SIZES] })))
  .filter((scenario) => !values.only || key(scenario).includes(values.only));

interface Sample extends Tally {
  seconds: number;
  /** CPU in ms over the window, per process group. */
  node: number;
  workerd: number;
  /** The host's other descendants (esbuild's service, idle once the bundles are built). */
  other: number;
  simulator: number;
  client: number;
}

async function execute(host: HostProcess, scenario: Scenario, measure: () => Promise<void>): Promise<Tally> {
  if (scenario.path === "run") {
    const tally = await runDirect(host.url, scenario.shape, scenario.rollouts, CONCURRENCY, host.headers);
    await measure();
    return tally;
  }
  const job = await runJob(host.url, scenario.shape, JOB_ROWS, scenario.rollouts / JOB_ROWS, POLL_MS, host.headers);
  await measure();
  // Reading the records back is not part of the rollouts: it happens after the window closes.
  return jobTally(host.url, job, host.headers);
}

const only = (ticks: TickSnapshot, comm: string): TickSnapshot => new Map([...ticks].filter(([, s]) => s.comm === comm));

async function window(host: HostProcess, simulator: SimulatorProcess, scenario: Scenario, ticksPerMs: number): Promise<Sample> {
  const read = async () => ({
    node: (await host.cpuMicros()) / 1000,
    tree: snapshot(descendants(host.pid)),
    simulator: readStat(simulator.pid)!.ticks,
    client: process.cpuUsage(),
    at: performance.now(),
  });
  const before = await read();
  let after = before;
  const tally = await execute(host, scenario, async () => {
    after = await read();
  });
  const all = ticksBetween(before.tree, after.tree);
  if (all.ended.length || all.started.length) {
    throw new Error(`processes came or went during the window (ended ${all.ended.join(", ")}; started ${all.started.join(", ")})`);
  }
  const workerd = ticksBetween(only(before.tree, "workerd"), only(after.tree, "workerd"));
  if (tally.failed > 0 || tally.rollouts !== scenario.rollouts) throw new Error(`${key(scenario)}: ${tally.rollouts} records, ${tally.failed} failures`);
  const client = { user: after.client.user - before.client.user, system: after.client.system - before.client.system };
  return {
    ...tally,
    seconds: (after.at - before.at) / 1000,
    node: after.node - before.node,
    workerd: workerd.ticks / ticksPerMs,
    other: (all.ticks - workerd.ticks) / ticksPerMs,
    simulator: (after.simulator - before.simulator) / ticksPerMs,
    client: (client.user + client.system) / 1000,
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const spread = (xs: number[]) => (Math.max(...xs) - Math.min(...xs)) / median(xs);
const edgegym = (s: Sample) => s.node + s.workerd + s.other;

/** The figures of one scenario on one root: the median of the repetitions, each figure on its own. */
function figures(samples: Sample[]) {
  const per = (f: (s: Sample) => number) => median(samples.map(f));
  return {
    turns_per_rollout: per((s) => s.turns / s.rollouts),
    rollouts_per_s: per((s) => s.rollouts / s.seconds),
    edgegym_cpu_ms_per_rollout: per((s) => edgegym(s) / s.rollouts),
    edgegym_cpu_ms_per_turn: per((s) => edgegym(s) / s.turns),
    /** (max - min) / median of the edgegym CPU per rollout over the repetitions: the noise to read a ratio against. */
    edgegym_cpu_spread: spread(samples.map((s) => edgegym(s) / s.rollouts)),
    node_cpu_ms_per_rollout: per((s) => s.node / s.rollouts),
    workerd_cpu_ms_per_rollout: per((s) => s.workerd / s.rollouts),
    other_cpu_ms_per_rollout: per((s) => s.other / s.rollouts),
    simulator_cpu_ms_per_rollout: per((s) => s.simulator / s.rollouts),
    client_cpu_ms_per_rollout: per((s) => s.client / s.rollouts),
    mean_reward: per((s) => s.reward / s.rollouts),
    runs: samples.map((s) => ({ rollouts_per_s: s.rollouts / s.seconds, edgegym_cpu_ms_per_rollout: edgegym(s) / s.rollouts })),
  };
}
type Figures = ReturnType<typeof figures>;

function describeRoot(root: string): string {
  try {
    const commit = execFileSync("git", ["-C", root, "rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
    const dirty = execFileSync("git", ["-C", root, "status", "--porcelain", "--untracked-files=no"], { encoding: "utf8" }).trim();
    return dirty ? `${commit}+changes` : commit;
  } catch {
    // No git, or not a checkout: the label says so instead of stopping the bench.
    return "not a git checkout";
  }
}

type Result = { root: string; commit: string; scenarios: Record<string, Figures> };

function table(results: Result[]): void {
  const head = ["root", "scenario", "turns/ro", "ro/s", "edgegym ms/ro", "spread", "node", "workerd", "ms/turn", "sim ms/ro", "client ms/ro", "reward"];
  const widths = [14, 18, 8, 7, 13, 6, 6, 8, 8, 9, 12, 6];
  const line = (cells: string[]) => `${cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(" ")}\n`;
  process.stdout.write(line(head));
  for (const result of results) {
    for (const [name, f] of Object.entries(result.scenarios)) {
      const n = (x: number, digits = 2) => x.toFixed(digits);
      process.stdout.write(
        line([
          result.commit.slice(0, 14),
          name,
          n(f.turns_per_rollout, 1),
          n(f.rollouts_per_s, 1),
          n(f.edgegym_cpu_ms_per_rollout),
          `${(f.edgegym_cpu_spread * 100).toFixed(0)}%`,
          n(f.node_cpu_ms_per_rollout),
          n(f.workerd_cpu_ms_per_rollout),
          n(f.edgegym_cpu_ms_per_turn),
          n(f.simulator_cpu_ms_per_rollout),
          n(f.client_cpu_ms_per_rollout),
          n(f.mean_reward),
        ]),
      );
    }
  }
}

/** Each result's figures as ratios to a reference's, scenario by scenario. */
function ratios(title: string, reference: Record<string, Figures>, compared: Result[]): void {
  process.stdout.write(`\nratios against ${title}: rollouts/s, edgegym CPU ms per rollout (below 1 = less CPU)\n`);
  for (const result of compared) {
    for (const [name, f] of Object.entries(result.scenarios)) {
      const base = reference[name];
      if (!base) continue;
      const speed = (f.rollouts_per_s / base.rollouts_per_s).toFixed(2);
      const cpu = (f.edgegym_cpu_ms_per_rollout / base.edgegym_cpu_ms_per_rollout).toFixed(2);
      process.stdout.write(`${result.commit.slice(0, 14).padEnd(14)} ${name.padEnd(18)} ×${speed} rollouts/s  ×${cpu} CPU/rollout\n`);
    }
  }
}

const ticksPerMs = clockTicksPerSecond() / 1000;
const simulator = await startSimulatorProcess();
const hosts: HostProcess[] = [];
try {
  for (const root of roots) hosts.push(await startHost(root, simulator, [SINGLE_TOOL.environment, TEN_TURNS.environment]));
  // Warm-up: bundles loaded, isolates and Durable Objects created, JIT warm, on every path, before any window.
  for (const host of hosts) for (const scenario of scenarios) await window(host, simulator, { ...scenario, rollouts: 32 }, ticksPerMs);
  const samples = new Map<string, Sample[]>();
  // Repetitions alternate roots and scenarios so every figure sees the same share of the machine's noise.
  for (let rep = 0; rep < REPS; rep++) {
    for (const scenario of scenarios) {
      for (const host of hosts) {
        const id = `${host.root}\n${key(scenario)}`;
        samples.set(id, [...(samples.get(id) ?? []), await window(host, simulator, scenario, ticksPerMs)]);
      }
    }
  }
  const results = hosts.map((host) => ({
    root: host.root,
    commit: describeRoot(host.root),
    processes: descendants(host.pid).map((p) => `${p.comm}(${p.pid})`),
    scenarios: Object.fromEntries(scenarios.map((s) => [key(s), figures(samples.get(`${host.root}\n${key(s)}`)!)])),
  }));
  const sizes = Object.entries(SIZES).map(([name, n]) => `${name} ${n}`);
  process.stdout.write(
    `rollouts per window: ${sizes.join(", ")} (jobs: ${JOB_ROWS} rows × repeats, polled every ${POLL_MS} ms); median of ${REPS}; simulator latency 0\n`,
  );
  process.stdout.write("edgegym = node (emulation host) + workerd (+ idle esbuild); sim and client (load generator) apart; ro = rollout; CPU in ms\n");
  for (const r of results) process.stdout.write(`${r.commit} (${r.root}): host below it ${r.processes.join(", ")}\n`);
  process.stdout.write("\n");
  table(results);
  if (results.length > 1) ratios(`the first root (${results[0]!.commit}), same run`, results[0]!.scenarios, results.slice(1));
  if (values.compare)
    ratios(`the first root of ${values.compare}`, (JSON.parse(readFileSync(values.compare, "utf8")) as { results: Result[] }).results[0]!.scenarios, results);
  const report = { date: new Date().toISOString(), quick: values.quick, concurrency: CONCURRENCY, sizes: SIZES, reps: REPS, results };
  writeFileSync(values.out, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`\nfigures written to ${path.relative(process.cwd(), values.out)}\n`);
} finally {
  for (const host of hosts) await host.stop();
  await simulator.stop();
}

// Scenario 1, efficiency: single-step tool rollouts (and 10-turn ones) with the simulator at zero latency through (a) /run,
// (b) the jobs path and (c) the baseline loop (bench/baseline/loop.ts), in the same run: rollouts/s, CPU ms per rollout
// over every edgegym process (the emulation's Node process and its workerd), the simulator and the load generator apart.
import { clockTicksPerSecond, descendants, readStat, snapshot, ticksBetween, type TickSnapshot } from "../cpu/proc.js";
import {
  BENCH_ROOT,
  type BaselineProcess,
  type HostProcess,
  type SimulatorProcess,
  startBaseline,
  startHost,
  startSimulatorProcess,
} from "../cpu/processes.js";
import { jobTally, runBatched, runDirect, runJob, SINGLE_TOOL, type Shape, TEN_TURNS, type Tally } from "../cpu/workload.js";
import { type Figure, emit, median, progress, quick } from "../lib/report.js";

const QUICK = quick();
const CONCURRENCY = 32;
const JOB_ROWS = 16;
const POLL_MS = 50;
const REPS = QUICK ? 1 : 3;
// Enough rollouts per window that /proc's 10 ms ticks and the job's polling weigh ~1% or less.
const SIZES: Record<string, number> = QUICK ? { "1-tool": 512, "10-turn": 64 } : { "1-tool": 4096, "10-turn": 512 };
type PathName = "run" | "batch" | "jobs" | "baseline";
const PATHS: PathName[] = ["run", "batch", "jobs", "baseline"];
const LABEL: Record<PathName, string> = { run: "(a) /run", batch: "(a2) /run/batch", jobs: "(b) jobs", baseline: "(c) baseline loop" };

const started = performance.now();
const say = progress("efficiency", started);
const ticksPerMs = clockTicksPerSecond() / 1000;

interface Sample extends Tally {
  seconds: number;
  /** CPU ms over the window: edgegym (host Node + workerd), or the baseline's process; the simulator; the load generator. */
  cpu: number;
  node: number;
  workerd: number;
  simulator: number;
  client: number;
}

const only = (ticks: TickSnapshot, comm: string): TickSnapshot => new Map([...ticks].filter(([, s]) => s.comm === comm));

async function measure(
  host: HostProcess,
  baseline: BaselineProcess,
  simulator: SimulatorProcess,
  path: PathName,
  shape: Shape,
  count: number,
): Promise<Sample> {
  const read = async () => ({
    node: (await host.cpuMicros()) / 1000,
    tree: snapshot(descendants(host.pid)),
    baseline: readStat(baseline.pid)!.ticks,
    simulator: readStat(simulator.pid)!.ticks,
    client: process.cpuUsage(),
    at: performance.now(),
  });
  const before = await read();
  let after = before;
  let tally: Tally;
  if (path === "run") {
    tally = await runDirect(host.url, shape, count, CONCURRENCY, host.headers);
    after = await read();
  } else if (path === "batch") {
    tally = await runBatched(host.url, shape, count, CONCURRENCY, host.headers);
    after = await read();
  } else if (path === "baseline") {
    tally = await baseline.run(shape.name, count, CONCURRENCY);
    after = await read();
  } else {
    const job = await runJob(host.url, shape, JOB_ROWS, count / JOB_ROWS, POLL_MS, host.headers);
    after = await read();
    // Reading the records back is not part of the rollouts: it happens after the window closes.
    tally = await jobTally(host.url, job, host.headers);
  }
  const all = ticksBetween(before.tree, after.tree);
  if (all.ended.length || all.started.length) throw new Error(`processes came or went during the window (${[...all.ended, ...all.started].join(", ")})`);
  if (tally.failed > 0 || tally.rollouts !== count) throw new Error(`${path} ${shape.name}: ${tally.rollouts} records of ${count}, ${tally.failed} failures`);
  const workerd = ticksBetween(only(before.tree, "workerd"), only(after.tree, "workerd")).ticks / ticksPerMs;
  const node = after.node - before.node;
  const other = all.ticks / ticksPerMs - workerd;
  const client = (after.client.user - before.client.user + after.client.system - before.client.system) / 1000;
  return {
    ...tally,
    seconds: (after.at - before.at) / 1000,
    cpu: path === "baseline" ? (after.baseline - before.baseline) / ticksPerMs : node + workerd + other,
    node,
    workerd,
    simulator: (after.simulator - before.simulator) / ticksPerMs,
    client,
  };
}

/** The baseline's model calls are edgegym's: one rollout each way, the simulator's recorded requests compared. */
async function sameModelCalls(host: HostProcess, baseline: BaselineProcess, simulator: SimulatorProcess): Promise<void> {
  const requests = async () =>
    ((await (await fetch(`${simulator.baseUrl.replace(/\/v1$/, "")}/simulator/requests`)).json()) as { requests: unknown[] }).requests;
  // Tool call ids are fresh per call: the rest must match.
  const normal = (list: unknown[]) => JSON.stringify(list).replace(/"(chatcmpl-tool-|call_)[\w-]+"/g, '"<id>"');
  for (const shape of [SINGLE_TOOL, TEN_TURNS]) {
    const before = (await requests()).length;
    await baseline.run(shape.name, 1, 1);
    const middle = (await requests()).length;
    await runDirect(host.url, shape, 1, 1, host.headers);
    const all = await requests();
    const ours = normal(all.slice(before, middle));
    const theirs = normal(all.slice(middle));
    if (ours !== theirs) throw new Error(`the baseline's model calls differ from edgegym's (${shape.name}):\n${ours.slice(0, 2000)}\n${theirs.slice(0, 2000)}`);
  }
}

const simulator = await startSimulatorProcess();
// No per-token rate limit in the way of a load test (a gateway without one ignores the variable).
const host = await startHost(BENCH_ROOT, simulator, [SINGLE_TOOL.environment, TEN_TURNS.environment], { vars: { gateway: { RATE_LIMIT_PER_SECOND: "0" } } });
const baseline = await startBaseline(simulator);
try {
  say(`simulator pid ${simulator.pid}, emulation pid ${host.pid}, baseline pid ${baseline.pid}; ${REPS} repetition(s) of ${JSON.stringify(SIZES)}`);
  await sameModelCalls(host, baseline, simulator);
  say("the baseline's model calls match edgegym's; warming up");
  for (const shape of [SINGLE_TOOL, TEN_TURNS]) for (const path of PATHS) await measure(host, baseline, simulator, path, shape, 64);
  const samples = new Map<string, Sample[]>();
  for (let rep = 0; rep < REPS; rep++) {
    // Paths alternate within a repetition, so each sees the same share of the machine's noise.
    for (const shape of [SINGLE_TOOL, TEN_TURNS]) {
      for (const path of PATHS) {
        const sample = await measure(host, baseline, simulator, path, shape, SIZES[shape.name]!);
        const key = `${path} ${shape.name}`;
        samples.set(key, [...(samples.get(key) ?? []), sample]);
        say(
          `${LABEL[path].padEnd(18)} ${shape.name.padEnd(7)} ${(sample.rollouts / sample.seconds).toFixed(0).padStart(5)} rollouts/s  ` +
            `${(sample.cpu / sample.rollouts).toFixed(2)} ms CPU/rollout  (sim ${(sample.simulator / sample.rollouts).toFixed(2)}, client ${(sample.client / sample.rollouts).toFixed(2)})`,
        );
      }
    }
  }

  const per = (key: string, f: (s: Sample) => number) => median((samples.get(key) ?? []).map(f));
  const rate = (key: string) => per(key, (s) => s.rollouts / s.seconds);
  const cpu = (key: string) => per(key, (s) => s.cpu / s.rollouts);
  const figures: Figure[] = [];
  const details: Record<string, unknown> = {};
  for (const shape of [SINGLE_TOOL, TEN_TURNS]) {
    for (const path of PATHS) {
      const key = `${path} ${shape.name}`;
      const id = `efficiency.${path}.${shape.name}`;
      const single = shape === SINGLE_TOOL;
      const isEdgegym = path !== "baseline";
      figures.push({
        id: `${id}.rollouts_per_s`,
        label: `${LABEL[path]} ${shape.name}: rollouts/s`,
        value: rate(key),
        unit: "/s",
        ...(single && path === "jobs" ? { target: { op: ">=", value: 700 } } : {}),
      });
      figures.push({
        id: `${id}.cpu_ms_per_rollout`,
        label: `${LABEL[path]} ${shape.name}: CPU per rollout${isEdgegym ? " (every edgegym process)" : " (its process)"}`,
        value: cpu(key),
        unit: "ms",
        ...(single && isEdgegym ? { target: { op: "<=", value: 2 } } : {}),
      });
      if (!single)
        figures.push({
          id: `${id}.cpu_ms_per_turn`,
          label: `${LABEL[path]} ${shape.name}: CPU per model turn`,
          value: per(key, (s) => s.cpu / s.turns),
          unit: "ms",
        });
      details[key] = {
        rollouts_per_s: rate(key),
        cpu_ms_per_rollout: cpu(key),
        cpu_ms_per_turn: per(key, (s) => s.cpu / s.turns),
        node_ms_per_rollout: per(key, (s) => s.node / s.rollouts),
        workerd_ms_per_rollout: per(key, (s) => s.workerd / s.rollouts),
        simulator_ms_per_rollout: per(key, (s) => s.simulator / s.rollouts),
        client_ms_per_rollout: per(key, (s) => s.client / s.rollouts),
        turns_per_rollout: per(key, (s) => s.turns / s.rollouts),
        mean_reward: per(key, (s) => s.reward / s.rollouts),
        runs: (samples.get(key) ?? []).map((s) => ({ rollouts: s.rollouts, seconds: s.seconds, cpu_ms: s.cpu })),
      };
    }
    figures.push({
      id: `efficiency.batch_over_jobs.${shape.name}`,
      label: `${LABEL.batch} / ${LABEL.jobs} ${shape.name}: CPU per rollout ratio`,
      value: cpu(`batch ${shape.name}`) / cpu(`jobs ${shape.name}`),
      unit: "×",
      target: { op: "<=", value: 1.5 },
    });
    for (const path of ["run", "jobs"] as const) {
      figures.push({
        id: `efficiency.${path}_over_baseline.${shape.name}`,
        label: `${LABEL[path]} / ${LABEL.baseline} ${shape.name}: rollouts/s ratio`,
        value: rate(`${path} ${shape.name}`) / rate(`baseline ${shape.name}`),
        unit: "×",
        ...(shape === SINGLE_TOOL ? { target: { op: ">=", value: path === "run" ? 0.5 : 0.35 } } : {}),
      });
    }
  }
  // A call that got no answer at all is a hang, whatever the rates say (sent again, so the window still completes).
  const hung = [...samples.entries()].filter(([key]) => key.startsWith("run ")).reduce((n, [, list]) => n + list.reduce((m, x) => m + (x.hung ?? 0), 0), 0);
  figures.push({
    id: "efficiency.run.hung",
    label: "(a) /run calls left unanswered for 60 s (then sent again)",
    value: hung,
    unit: "",
    target: { op: "<=", value: 0 },
  });
  emit({
    scenario: "efficiency",
    title: "Efficiency: rollouts with a zero-latency model, /run and jobs against the baseline loop",
    seconds: (performance.now() - started) / 1000,
    figures,
    details: { concurrency: CONCURRENCY, job_rows: JOB_ROWS, sizes: SIZES, repetitions: REPS, paths: details },
  });
} finally {
  await baseline.stop();
  await host.stop();
  await simulator.stop();
}

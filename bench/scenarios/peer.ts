// Scenario "peer" (issue 29 item 7): NeMo Gym beside edgegym on the same simulator at zero latency and the same rows
// (tests/fixtures/nemo-gym/<env>/example.jsonl, repeated), single-step and multi-step: rollouts/s and CPU ms per rollout of
// each side's server processes, and the ratios. The NeMo Gym installation comes from `--nemo-gym <dir>` or
// BENCH_NEMO_GYM_DIR; without one the scenario prints how to get one and emits its figures as null.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { clockTicksPerSecond, descendants, readStat, snapshot, ticksBetween } from "../cpu/proc.js";
import { BENCH_ROOT, type HostProcess, startHost, startSimulatorProcess } from "../cpu/processes.js";
import { jobTally, modelTurns, runJob, type Shape } from "../cpu/workload.js";
import { emit, type Figure, progress, quick } from "../lib/report.js";
import { HOW_TO_GET_ONE, NEMO_GYM_SHAPES, type NemoGymStack, namedDir, nemoGymInstall, type PeerShape, readRollouts, startNemoGym } from "../peer/nemo-gym.js";

const QUICK = quick();
/** Rollouts per shape and side: the rows repeated up to it. */
const SIZE = QUICK ? 200 : 1000;
/** Rollouts in flight on each side (NeMo Gym's num_samples_in_parallel, edgegym's job as the queue feeds it). */
const PARALLEL = 32;
const SHAPES = Object.keys(NEMO_GYM_SHAPES) as PeerShape[];
const started = performance.now();
const say = progress("peer", started);

interface Side {
  rate: number | null;
  cpu: number | null;
}
type Results = Record<PeerShape, { edgegym: Side; nemoGym: Side }>;

const ratio = (a: number | null, b: number | null) => (a === null || b === null || b === 0 ? null : a / b);

/** `skipped`: the note every figure carries when nothing ran; otherwise NeMo Gym's rates say what their time includes. */
function figures(results: Results, skipped?: string): Figure[] {
  const out: Figure[] = [];
  const extra = skipped ? { note: skipped } : {};
  const rateNote = skipped ? extra : { note: "ng_collect_rollouts' own start-up included" };
  for (const shape of SHAPES) {
    const { edgegym, nemoGym } = results[shape];
    const id = `peer.${shape}`;
    out.push(
      { id: `${id}.edgegym.rollouts_per_s`, label: `${shape}: edgegym (jobs) rollouts/s`, value: edgegym.rate, unit: "/s", ...extra },
      { id: `${id}.edgegym.cpu_ms_per_rollout`, label: `${shape}: edgegym (jobs) CPU per rollout`, value: edgegym.cpu, unit: "ms", ...extra },
      { id: `${id}.nemo_gym.rollouts_per_s`, label: `${shape}: NeMo Gym rollouts/s`, value: nemoGym.rate, unit: "/s", ...rateNote },
      {
        id: `${id}.nemo_gym.cpu_ms_per_rollout`,
        label: `${shape}: NeMo Gym CPU per rollout (ng_run's process tree)`,
        value: nemoGym.cpu,
        unit: "ms",
        ...extra,
      },
      { id: `${id}.cpu_ratio`, label: `${shape}: NeMo Gym CPU / edgegym CPU per rollout`, value: ratio(nemoGym.cpu, edgegym.cpu), unit: "×", ...extra },
      { id: `${id}.rate_ratio`, label: `${shape}: edgegym rate / NeMo Gym rate`, value: ratio(edgegym.rate, nemoGym.rate), unit: "×", ...rateNote },
    );
  }
  return out;
}

const dir = namedDir(process.argv.slice(2), process.env);
if (dir === undefined) {
  process.stdout.write(`${HOW_TO_GET_ONE}\n`);
  const none = { rate: null, cpu: null };
  const results = Object.fromEntries(SHAPES.map((s) => [s, { edgegym: none, nemoGym: none }])) as Results;
  emit({
    scenario: "peer",
    title: "Peer: NeMo Gym beside edgegym, same simulator and rows",
    seconds: (performance.now() - started) / 1000,
    figures: figures(results, "skipped: no NeMo Gym installation named (--nemo-gym <dir>)"),
  });
  process.exit(0);
}

let install: ReturnType<typeof nemoGymInstall>;
try {
  install = nemoGymInstall(dir);
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(2);
}

const ticksPerMs = clockTicksPerSecond() / 1000;
const fixture = (shape: PeerShape) => path.join(BENCH_ROOT, "tests", "fixtures", "nemo-gym", NEMO_GYM_SHAPES[shape].environment, "example.jsonl");
const rowsOf = (shape: PeerShape) =>
  readFileSync(fixture(shape), "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** edgegym's side: one job of the fixture's rows × repeats, its CPU over every edgegym process (efficiency's count). */
async function edgegymSide(host: HostProcess, shape: PeerShape, repeats: number) {
  const rows = rowsOf(shape);
  const jobShape: Shape = { name: shape, environment: NEMO_GYM_SHAPES[shape].environment, row: (i) => rows[i % rows.length]! };
  const before = { node: (await host.cpuMicros()) / 1000, tree: snapshot(descendants(host.pid)), at: performance.now() };
  const job = await runJob(host.url, jobShape, rows.length, repeats, 50, host.headers);
  const after = { node: (await host.cpuMicros()) / 1000, tree: snapshot(descendants(host.pid)), at: performance.now() };
  const tally = await jobTally(host.url, job, host.headers);
  const count = rows.length * repeats;
  if (tally.failed > 0 || tally.rollouts !== count) throw new Error(`edgegym ${shape}: ${tally.rollouts} records of ${count}, ${tally.failed} failures`);
  const cpu = after.node - before.node + ticksBetween(before.tree, after.tree).ticks / ticksPerMs;
  return { rollouts: count, seconds: (after.at - before.at) / 1000, cpu, turns: tally.turns, reward: tally.reward };
}

/** NeMo Gym's side: ng_collect_rollouts over the same rows × repeats; CPU over ng_run's process tree (the collector apart). */
async function nemoGymSide(stack: NemoGymStack, shape: PeerShape, repeats: number, work: string) {
  const rowsFile = fixture(shape);
  const out = path.join(work, `${shape}-${Date.now()}.jsonl`);
  // ng_run itself (its head server) and every server below it.
  const tree = () => snapshot([readStat(stack.pid)!, ...descendants(stack.pid)]);
  const before = tree();
  const { seconds } = await stack.collect(shape, rowsFile, repeats, out, PARALLEL);
  const between = ticksBetween(before, tree());
  const tally = readRollouts(out, modelTurns);
  const count = rowsOf(shape).length * repeats;
  if (tally.rollouts !== count) throw new Error(`NeMo Gym ${shape}: ${tally.rollouts} records of ${count}`);
  return { rollouts: count, seconds, cpu: between.ticks / ticksPerMs, turns: tally.turns, reward: tally.reward, ended: between.ended };
}

const work = mkdtempSync(path.join(os.tmpdir(), "edgegym-peer-"));
const simulator = await startSimulatorProcess();
const environments = SHAPES.map((s) => NEMO_GYM_SHAPES[s].environment);
const host = await startHost(BENCH_ROOT, simulator, environments, { vars: { gateway: { RATE_LIMIT_PER_SECOND: "0" } } });
let stack: NemoGymStack | undefined;
try {
  say(`simulator pid ${simulator.pid}, emulation pid ${host.pid}; starting NeMo Gym from ${install.dir}`);
  stack = await startNemoGym(install, simulator.baseUrl, simulator.model, say);
  const results = {} as Results;
  const details: Record<string, unknown> = { size: SIZE, parallel: PARALLEL, nemo_gym_dir: install.dir };
  for (const shape of SHAPES) {
    const repeats = Math.ceil(SIZE / rowsOf(shape).length);
    // A short warm-up of each side first (first requests, venv imports), outside the windows.
    await edgegymSide(host, shape, 2);
    await nemoGymSide(stack, shape, 2, work);
    const ours = await edgegymSide(host, shape, repeats);
    const theirs = await nemoGymSide(stack, shape, repeats, work);
    results[shape] = {
      edgegym: { rate: ours.rollouts / ours.seconds, cpu: ours.cpu / ours.rollouts },
      nemoGym: { rate: theirs.rollouts / theirs.seconds, cpu: theirs.cpu / theirs.rollouts },
    };
    details[shape] = { edgegym: ours, nemo_gym: theirs };
    const r = results[shape];
    say(
      `${shape.padEnd(11)} edgegym ${r.edgegym.rate!.toFixed(0)} rollouts/s ${r.edgegym.cpu!.toFixed(2)} ms CPU; ` +
        `NeMo Gym ${r.nemoGym.rate!.toFixed(0)} rollouts/s ${r.nemoGym.cpu!.toFixed(2)} ms CPU (turns/rollout ${(ours.turns / ours.rollouts).toFixed(1)} vs ${(theirs.turns / theirs.rollouts).toFixed(1)})`,
    );
  }
  emit({
    scenario: "peer",
    title: "Peer: NeMo Gym beside edgegym, same simulator and rows",
    seconds: (performance.now() - started) / 1000,
    figures: figures(results),
    details,
  });
  // The cost scenario takes NeMo Gym's CPU per rollout from this variable when set to it (printed for the operator).
  say(`BENCH_NEMO_GYM_CPU_MS for the cost scenario: 1-tool=${results["single-step"].nemoGym.cpu!.toFixed(1)}`);
} finally {
  await stack?.stop();
  await host.stop();
  await simulator.stop();
  rmSync(work, { recursive: true, force: true });
}

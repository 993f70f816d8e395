// Scenario "cost": cost per million rollouts (issue 29 item 6). Single-step and 10-turn jobs through the local emulation
// with every Worker counting its operations (local/counting.ts) and edgegym's CPU measured over the same window; the counts
// priced for Cloudflare, mapped onto AWS (Lambda, SQS, S3), and NeMo Gym's CPU per rollout priced on a VM beside them.
import { clockTicksPerSecond, descendants, snapshot, ticksBetween } from "../cpu/proc.js";
import { BENCH_ROOT, type HostProcess, startHost, startSimulatorProcess } from "../cpu/processes.js";
import { jobTally, runJob, SINGLE_TOOL, type Shape, TEN_TURNS } from "../cpu/workload.js";
import { awsCost, cloudflareCost, type Cost, type Usage, usageFrom, vmCost } from "../cost/model.js";
import { PRICES, VM_VCPUS } from "../cost/prices.js";
import { emit, type Figure, progress, quick } from "../lib/report.js";

const QUICK = quick();
const JOB_ROWS = 16;
const SIZES: Record<string, number> = QUICK ? { "1-tool": 256, "10-turn": 64 } : { "1-tool": 2048, "10-turn": 256 };
const started = performance.now();
const say = progress("cost", started);
const ticksPerMs = clockTicksPerSecond() / 1000;

/**
 * NeMo Gym's CPU per rollout (ms), as measured beside edgegym on this machine: BENCH_NEMO_GYM_CPU_MS="1-tool=23.4,10-turn=…"
 * gives this run's; otherwise issue 29's same-machine measurement for single-step (NeMo Gym at 07d6b0d, 1,000 rollouts),
 * and none for 10 turns (never measured: the row says so).
 */
function nemoGymCpu(): Record<string, { ms: number | null; source: string }> {
  const given = process.env.BENCH_NEMO_GYM_CPU_MS;
  if (given) {
    const pairs = Object.fromEntries(given.split(",").map((pair) => pair.split("=").map((s) => s.trim()) as [string, string]));
    return Object.fromEntries(
      [SINGLE_TOOL, TEN_TURNS].map((shape) => {
        const ms = Number(pairs[shape.name]);
        return [shape.name, { ms: Number.isFinite(ms) && ms > 0 ? ms : null, source: "BENCH_NEMO_GYM_CPU_MS" }];
      }),
    );
  }
  return {
    "1-tool": { ms: 23.4, source: "issue 29: NeMo Gym 07d6b0d beside edgegym on this machine, 1,000 single-step rollouts" },
    "10-turn": { ms: null, source: "not measured: set BENCH_NEMO_GYM_CPU_MS=10-turn=<ms> from a NeMo Gym run" },
  };
}

interface Measured {
  usage: Usage;
  rollouts: number;
  seconds: number;
  counts: Awaited<ReturnType<HostProcess["counts"]>>;
}

async function measure(host: HostProcess, shape: Shape, count: number): Promise<Measured> {
  await host.counts(true);
  const before = { node: (await host.cpuMicros()) / 1000, tree: snapshot(descendants(host.pid)), at: performance.now() };
  const job = await runJob(host.url, shape, JOB_ROWS, count / JOB_ROWS, 50, host.headers);
  // The writer's last acknowledgements and the Job's alarm follow the last record by a few ms: let them land in the window.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const after = { node: (await host.cpuMicros()) / 1000, tree: snapshot(descendants(host.pid)), at: performance.now() };
  const counts = await host.counts(true);
  const tally = await jobTally(host.url, job, host.headers);
  if (tally.failed > 0 || tally.rollouts !== count) throw new Error(`${shape.name}: ${tally.rollouts} records of ${count}, ${tally.failed} failures`);
  const cpu = after.node - before.node + ticksBetween(before.tree, after.tree).ticks / ticksPerMs;
  const seconds = (after.at - before.at) / 1000;
  return { usage: usageFrom(counts, count, cpu / count, seconds), rollouts: count, seconds, counts };
}

const dollars = (x: number | null) => (x === null ? "n/a" : x >= 100 ? `$${x.toFixed(0)}` : x >= 1 ? `$${x.toFixed(2)}` : `$${x.toFixed(3)}`);

/** The table the README shows: one row per provider, one column per shape. */
function markdown(rows: { label: string; values: (number | null)[] }[], shapes: string[], notes: string[]): string {
  const head = `| cost per million rollouts | ${shapes.join(" | ")} |\n|---|${shapes.map(() => "---:").join("|")}|`;
  const body = rows.map((row) => `| ${row.label} | ${row.values.map(dollars).join(" | ")} |`).join("\n");
  return `${head}\n${body}\n\n${notes.map((n) => `- ${n}`).join("\n")}\n`;
}

const simulator = await startSimulatorProcess();
const host = await startHost(BENCH_ROOT, simulator, [SINGLE_TOOL.environment, TEN_TURNS.environment], {
  vars: { gateway: { RATE_LIMIT_PER_SECOND: "0" } },
  countOperations: true,
});
try {
  say(`counting every Worker's operations; ${JSON.stringify(SIZES)} rollouts through the jobs path`);
  for (const shape of [SINGLE_TOOL, TEN_TURNS]) await measure(host, shape, 32);
  const nemo = nemoGymCpu();
  const figures: Figure[] = [];
  const details: Record<string, unknown> = {};
  const rows = { cloudflare: [] as number[], aws: [] as number[], nemo: [] as (number | null)[], edgegymVm: [] as number[] };
  for (const shape of [SINGLE_TOOL, TEN_TURNS]) {
    const m = await measure(host, shape, SIZES[shape.name]!);
    const costs: Record<string, Cost | null> = {
      cloudflare: cloudflareCost(m.usage, PRICES),
      aws: awsCost(m.usage, PRICES),
      nemo_gym_vm: nemo[shape.name]!.ms === null ? null : vmCost(nemo[shape.name]!.ms!, PRICES),
      edgegym_vm: vmCost(m.usage.cpuMs, PRICES),
    };
    rows.cloudflare.push(costs.cloudflare!.total);
    rows.aws.push(costs.aws!.total);
    rows.nemo.push(costs.nemo_gym_vm?.total ?? null);
    rows.edgegymVm.push(costs.edgegym_vm!.total);
    const u = m.usage;
    say(
      `${shape.name}: ${m.rollouts} rollouts in ${m.seconds.toFixed(1)} s; per rollout ${u.cpuMs.toFixed(2)} ms CPU, ${u.workerRequests.toFixed(3)} Worker requests, ` +
        `${u.durableObjectRequests.toFixed(2)} DO requests, ${u.rowsRead.toFixed(1)}/${u.rowsWritten.toFixed(1)} rows read/written, ` +
        `${u.queueOperations.toFixed(2)} queue operations, ${u.classA.toFixed(3)}/${u.classB.toFixed(3)} bucket class A/B`,
    );
    for (const [provider, c] of Object.entries(costs))
      figures.push({
        id: `cost.${provider}.${shape.name}.usd_per_million`,
        label: `${shape.name}: cost per million rollouts, ${provider.replace(/_/g, " ")}`,
        value: c?.total ?? null,
        unit: "$",
        ...(c ? {} : { note: nemo[shape.name]!.source }),
      });
    details[shape.name] = { rollouts: m.rollouts, seconds: m.seconds, per_rollout: u, costs, counts: m.counts, nemo_gym_cpu: nemo[shape.name] };
  }
  const shapes = [SINGLE_TOOL.name, TEN_TURNS.name];
  const table = markdown(
    [
      { label: "Cloudflare (Workers, Durable Objects, Queues, R2)", values: rows.cloudflare },
      { label: "AWS (Lambda arm64 1 GB, SQS, S3)", values: rows.aws },
      { label: `NeMo Gym on a VM (c7i.large, ${VM_VCPUS} vCPUs kept busy)`, values: rows.nemo },
      { label: "edgegym's own CPU on the same VM", values: rows.edgegymVm },
    ],
    shapes,
    [
      "Counted in this run through the jobs path (local emulation, zero-latency model simulator); list prices, free tiers and included usage left out (bench/cost/prices.ts: each price's page and date; those marked unconfirmed could not be checked offline).",
      "CPU: every edgegym process together (workerd and the emulation's Node process), with counting on; not split by Worker.",
      "Durable Object duration: each object counted active from its first call to its last, plus 1 s, at most the window: an upper bound (an object idle between calls, a session between tool calls, may hibernate and is then not billed).",
      "AWS: the counts mapped onto Lambda (1 invocation per 10 rollout messages, billed for the rollouts' CPU time), SQS (send, receive, delete in batches of 10) and S3 (bucket operations plus a PUT, a LIST and a GET per result), not measured on AWS. A real model's latency adds to Lambda and Durable Object duration; not included.",
      `NeMo Gym's CPU per rollout: ${Object.entries(nemo)
        .map(([shape, n]) => `${shape} ${n.ms === null ? "n/a" : `${n.ms} ms`} (${n.source})`)
        .join("; ")}.`,
    ],
  );
  process.stdout.write(`\n${table}`);
  emit({
    scenario: "cost",
    title: "Cost per million rollouts (counted operations × published prices)",
    seconds: (performance.now() - started) / 1000,
    figures,
    details: { table, sizes: SIZES, job_rows: JOB_ROWS, prices: PRICES, shapes: details },
  });
} finally {
  await host.stop();
  await simulator.stop();
}

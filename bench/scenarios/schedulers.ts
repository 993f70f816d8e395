// The agent's two schedulers on one job each, in one run: rollouts run in the queue batch (RUNNER_SHARDS=0, the AWS path's
// way) or handed to the rollout runners (Durable Objects, the Worker's default). Throughput of each and their ratio, with a
// model slow enough that waiting dominates (200 ms per call) and one fast enough that the agent's own work does (5 ms).
import { emit, type Figure, progress, quick } from "../lib/report.js";
import { runStreamedJob } from "./streamed-job.js";

const started = performance.now();
const QUICK = quick();
const say = progress("schedulers", started);
const SCHEDULERS = { runners: "4", "in-batch": "0" } as const;
type Scheduler = keyof typeof SCHEDULERS;
const CASES = [
  { latencyMs: 200, rollouts: QUICK ? 2048 : 8192 },
  { latencyMs: 5, rollouts: QUICK ? 2048 : 8192 },
];

const figures: Figure[] = [];
const details: Record<string, unknown> = {};
for (const [i, { latencyMs, rollouts }] of CASES.entries()) {
  // The order alternates between cases, so a machine that slows down over the run does not favour one scheduler.
  const order: Scheduler[] = i % 2 === 0 ? ["runners", "in-batch"] : ["in-batch", "runners"];
  const throughput: Partial<Record<Scheduler, number | null>> = {};
  const first: Partial<Record<Scheduler, number | null>> = {};
  for (const scheduler of order) {
    say(`${rollouts} rollouts, model at ${latencyMs} ms, scheduler ${scheduler} (RUNNER_SHARDS=${SCHEDULERS[scheduler]})`);
    const result = await runStreamedJob({
      scenario: `schedulers ${scheduler}`,
      rollouts,
      repeats: 16,
      latencyMs,
      budgetSeconds: QUICK ? 240 : 900,
      agentVars: { RUNNER_SHARDS: SCHEDULERS[scheduler] },
    });
    const f = result.figures;
    throughput[scheduler] = f.completion === 1 ? f.throughput : null;
    first[scheduler] = f.firstResultSeconds;
    details[`${scheduler}.${latencyMs}ms`] = { ...f, timed_out: result.timedOut };
    figures.push({
      id: `schedulers.${latencyMs}ms.${scheduler}.throughput`,
      label: `${scheduler}, model at ${latencyMs} ms: throughput`,
      value: throughput[scheduler] ?? null,
      unit: "rollouts/s",
      note: `${f.done} of ${f.submitted} done, p50 ${f.p50Seconds?.toFixed(1)} s, workerd peak ${f.peakMiB.workerd?.toFixed(0)} MiB`,
    });
    figures.push({
      id: `schedulers.${latencyMs}ms.${scheduler}.first_result_s`,
      label: `${scheduler}, model at ${latencyMs} ms: time to first result`,
      value: first[scheduler] ?? null,
      unit: "s",
    });
  }
  const runners = throughput.runners;
  const inBatch = throughput["in-batch"];
  figures.push({
    id: `schedulers.${latencyMs}ms.ratio`,
    label: `runners ÷ in-batch throughput, model at ${latencyMs} ms`,
    value: runners && inBatch ? runners / inBatch : null,
    unit: "×",
  });
  figures.push({
    id: `schedulers.${latencyMs}ms.first_result_ratio`,
    label: `runners ÷ in-batch time to first result, model at ${latencyMs} ms`,
    value: first.runners && first["in-batch"] ? first.runners / first["in-batch"] : null,
    unit: "×",
  });
}
emit({
  scenario: "schedulers",
  title: "The agent's two schedulers: in the queue batch or in the rollout runners (jobs path)",
  seconds: (performance.now() - started) / 1000,
  figures,
  details,
});

// 16,384 rollouts submitted at once (one job) with the model at 2 s per call: all succeed, the first result within 5 s,
// p99 under 30 s (NeMo Gym, measured here: first after 13.8 s, p50 172 s, p99 328 s). Times run from the submission to
// the result's arrival at the caller (the job's results followed as they land).
import { emit, quick } from "../lib/report.js";
import { memoryFigures, runStreamedJob } from "./streamed-job.js";

const started = performance.now();
const QUICK = quick();
const rollouts = QUICK ? 2048 : 16_384;
const result = await runStreamedJob({ scenario: "burst", rollouts, repeats: 16, latencyMs: 2000, budgetSeconds: QUICK ? 180 : 600 });
const f = result.figures;
emit({
  scenario: "burst",
  title: `${rollouts.toLocaleString("en")} rollouts submitted at once, model at 2 s per call (jobs path)`,
  seconds: (performance.now() - started) / 1000,
  figures: [
    {
      id: "burst.succeeded",
      label: "rollouts that succeeded",
      value: f.completion * 100,
      unit: "%",
      target: { op: ">=", value: 100 },
      note: `${f.done} of ${f.submitted}, ${f.failed} failed`,
    },
    { id: "burst.first_result_s", label: "time to first result", value: f.firstResultSeconds, unit: "s", target: { op: "<=", value: 5 } },
    { id: "burst.p50_s", label: "result latency p50 (submission → arrival)", value: f.p50Seconds, unit: "s" },
    { id: "burst.p99_s", label: "result latency p99 (submission → arrival)", value: f.p99Seconds, unit: "s", target: { op: "<", value: 30 } },
    { id: "burst.throughput", label: "throughput", value: f.throughput, unit: "rollouts/s" },
    { id: "burst.peak_held", label: "model calls held at once (simulator's count)", value: f.peakHeld, unit: "" },
    ...memoryFigures("burst", result),
  ],
  series: result.series,
  details: { timed_out: result.timedOut, ...f },
});

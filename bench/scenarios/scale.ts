// One job of 65,536 rollouts with the model at 2 s per call: completion, time to first result, throughput, and each
// process's peak memory (which must stay flat as the job grows, and under 1 GiB).
import { emit, quick } from "../lib/report.js";
import { memoryFigures, runStreamedJob } from "./streamed-job.js";

const started = performance.now();
const QUICK = quick();
const rollouts = QUICK ? 4096 : 65_536;
const result = await runStreamedJob({ scenario: "scale", rollouts, repeats: 16, latencyMs: 2000, budgetSeconds: QUICK ? 240 : 1200 });
const f = result.figures;
emit({
  scenario: "scale",
  title: `One job of ${rollouts.toLocaleString("en")} rollouts, model at 2 s per call`,
  seconds: (performance.now() - started) / 1000,
  figures: [
    {
      id: "scale.completed",
      label: "rollouts completed",
      value: f.completion * 100,
      unit: "%",
      target: { op: ">=", value: 100 },
      note: `${f.done} of ${f.submitted}, ${f.failed} failed`,
    },
    { id: "scale.first_result_s", label: "time to first result", value: f.firstResultSeconds, unit: "s", target: { op: "<=", value: 5 } },
    { id: "scale.throughput", label: "throughput", value: f.throughput, unit: "rollouts/s" },
    { id: "scale.duration_s", label: "time to the last result", value: f.lastResultSeconds, unit: "s" },
    { id: "scale.peak_held", label: "model calls held at once (simulator's count)", value: f.peakHeld, unit: "" },
    ...memoryFigures("scale", result, 1024),
  ],
  series: result.series,
  details: { timed_out: result.timedOut, ...f },
});

// With the model at 60 s per call, how many of 16,384 rollouts are truly in flight at once: the simulator's own count of
// the chat completions it holds (vLLM's num_requests_running). Every rollout must succeed.
import { emit, quick } from "../lib/report.js";
import { memoryFigures, runStreamedJob } from "./streamed-job.js";

const started = performance.now();
const QUICK = quick();
const rollouts = QUICK ? 2048 : 16_384;
const latencyMs = QUICK ? 15_000 : 60_000;
const result = await runStreamedJob({ scenario: "inflight", rollouts, repeats: 16, latencyMs, budgetSeconds: QUICK ? 240 : 900 });
const f = result.figures;
emit({
  scenario: "inflight",
  title: `${rollouts.toLocaleString("en")} rollouts with the model at ${latencyMs / 1000} s per call: requests held at once`,
  seconds: (performance.now() - started) / 1000,
  figures: [
    { id: "inflight.peak_held", label: "model calls held at once (simulator's count)", value: f.peakHeld, unit: "", target: { op: ">=", value: rollouts } },
    {
      id: "inflight.succeeded",
      label: "rollouts that succeeded",
      value: f.completion * 100,
      unit: "%",
      target: { op: ">=", value: 100 },
      note: `${f.done} of ${f.submitted}, ${f.failed} failed`,
    },
    {
      id: "inflight.duration_s",
      label: "time to the last result",
      value: f.lastResultSeconds,
      unit: "s",
      note: `two model calls per rollout: ${(2 * latencyMs) / 1000} s at the least`,
    },
    ...memoryFigures("inflight", result),
  ],
  series: result.series,
  details: { ...f, timed_out: result.timedOut, latency_ms: latencyMs },
});

// One large job through the jobs path with a slow simulator, its results followed as they land (GET …/rollouts?follow=true),
// every process's memory sampled: shared by the burst (16,384 at once), scale (65,536) and in-flight (60 s model) scenarios.
import { BENCH_ROOT, startHost, startSimulatorProcess } from "../cpu/processes.js";
import { SINGLE_TOOL } from "../cpu/workload.js";
import { type Figure, type Point, percentile, progress } from "../lib/report.js";
import { simulatorGauge, startSampler, workerdPids } from "../lib/sampler.js";

export interface StreamedJobOptions {
  scenario: string;
  rollouts: number;
  repeats: number;
  latencyMs: number;
  /** Stop waiting (and cancel the job) after this long. */
  budgetSeconds: number;
  /** Agent variables (e.g. RUNNER_MAX_IN_FLIGHT). */
  agentVars?: Record<string, string>;
}

export interface StreamedJobResult {
  figures: {
    submitted: number;
    done: number;
    failed: number;
    completion: number;
    firstResultSeconds: number | null;
    lastResultSeconds: number | null;
    p50Seconds: number | null;
    p99Seconds: number | null;
    throughput: number | null;
    peakHeld: number;
    peakMiB: Record<string, number>;
    /** Resident memory of each group when a tenth and nine tenths of the results were in (MiB). */
    growthMiB: Record<string, { early: number; late: number }>;
  };
  series: Record<string, Point[]>;
  timedOut: boolean;
}

function at(series: Point[] | undefined, t: number): number {
  if (!series?.length) return Number.NaN;
  let best = series[0]!;
  for (const point of series) if (Math.abs(point.t - t) < Math.abs(best.t - t)) best = point;
  return best.v;
}

export async function runStreamedJob(options: StreamedJobOptions): Promise<StreamedJobResult> {
  const started = performance.now();
  const say = progress(options.scenario, started);
  // Tens of thousands of held requests: the simulator's heap and the host's get room to spare.
  const simulator = await startSimulatorProcess({ latencyMs: options.latencyMs, nodeFlags: ["--max-old-space-size=4096"] });
  const host = await startHost(BENCH_ROOT, simulator, [SINGLE_TOOL.environment], {
    vars: { gateway: { RATE_LIMIT_PER_SECOND: "0" }, ...(options.agentVars ? { agent: options.agentVars } : {}) },
  });
  try {
    const rows = options.rollouts / options.repeats;
    const body = `${Array.from({ length: rows }, (_, i) => JSON.stringify(SINGLE_TOOL.row(i))).join("\n")}\n`;
    const t0 = performance.now();
    const sampler = startSampler(
      {
        groups: {
          "emulation (node)": () => [host.pid],
          workerd: () => workerdPids(host.pid),
          simulator: () => [simulator.pid],
          "load generator": () => [process.pid],
        },
        gauges: { held_requests: () => simulatorGauge(simulator.baseUrl) },
      },
      t0,
    );
    const query = new URLSearchParams({ environment: SINGLE_TOOL.environment, num_repeats: String(options.repeats) });
    const created = await fetch(`${host.url}/v1/jobs?${query}`, { method: "POST", headers: { ...host.headers, "content-type": "application/x-ndjson" }, body });
    if (!created.ok) throw new Error(`POST /v1/jobs answered ${created.status}: ${await created.text()}`);
    const job = (await created.json()) as { id: string; counts: { total: number } };
    say(`job ${job.id}: ${job.counts.total} rollouts submitted at once (${rows} rows × ${options.repeats}), model ${options.latencyMs} ms per call`);

    // Every result's arrival at the caller, in seconds since the job was submitted.
    const arrivals = new Float64Array(options.rollouts);
    let received = 0;
    const stop = new AbortController();
    const budget = setTimeout(() => stop.abort(), options.budgetSeconds * 1000);
    const report = setInterval(() => {
      const held = sampler.series.held_requests?.at(-1)?.v ?? 0;
      say(`${received} results in, ${held} model calls held by the simulator`);
    }, 10_000);
    let timedOut = false;
    try {
      const response = await fetch(`${host.url}/v1/jobs/${job.id}/rollouts?follow=true`, { headers: host.headers, signal: stop.signal });
      const reader = response.body!.getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        const now = (performance.now() - t0) / 1000;
        for (const byte of value) if (byte === 10 && received < arrivals.length) arrivals[received++] = now;
      }
    } catch (error) {
      if (!stop.signal.aborted) throw error;
      timedOut = true;
      say(`budget of ${options.budgetSeconds} s spent with ${received} results in: the job is cancelled`);
      await fetch(`${host.url}/v1/jobs/${job.id}`, { method: "DELETE", headers: host.headers });
    } finally {
      clearTimeout(budget);
      clearInterval(report);
    }
    const info = (await (await fetch(`${host.url}/v1/jobs/${job.id}`, { headers: host.headers })).json()) as { counts: { done: number; failed: number } };
    await sampler.stop();
    const times = Array.from(arrivals.subarray(0, received)).sort((a, b) => a - b);
    const first = times[0] ?? null;
    const last = times.at(-1) ?? null;
    const series = sampler.series;
    const peaks = sampler.peaks();
    const growthMiB: Record<string, { early: number; late: number }> = {};
    if (times.length >= 10) {
      const early = times[Math.floor(times.length * 0.1)]!;
      const late = times[Math.floor(times.length * 0.9)]!;
      for (const group of Object.keys(peaks)) growthMiB[group] = { early: at(series[`rss_mib.${group}`], early), late: at(series[`rss_mib.${group}`], late) };
    }
    // Results over time, for the chart: a point per second.
    const landed: Point[] = [];
    for (let i = 0, second = 0; second <= Math.ceil(last ?? 0); second++) {
      while (i < times.length && times[i]! <= second) i++;
      landed.push({ t: second, v: i });
    }
    series.results = landed;
    say(`${info.counts.done} done, ${info.counts.failed} failed of ${options.rollouts}; first result ${first?.toFixed(1)} s, last ${last?.toFixed(1)} s`);
    return {
      figures: {
        submitted: options.rollouts,
        done: info.counts.done,
        failed: info.counts.failed,
        completion: info.counts.done / options.rollouts,
        firstResultSeconds: first,
        lastResultSeconds: last,
        p50Seconds: times.length ? percentile(times, 50) : null,
        p99Seconds: times.length ? percentile(times, 99) : null,
        throughput: last ? info.counts.done / last : null,
        peakHeld: Math.max(0, ...(series.held_requests ?? []).map((p) => p.v)),
        peakMiB: Object.fromEntries(Object.entries(peaks).map(([group, peak]) => [group, Math.max(peak.rssMiB, peak.hwmMiB)])),
        growthMiB,
      },
      series,
      timedOut,
    };
  } finally {
    await host.stop();
    await simulator.stop();
  }
}

/** Memory figures every job scenario reports: each process group's peak, against a limit when one is set. */
export function memoryFigures(scenario: string, result: StreamedJobResult, limitMiB?: number): Figure[] {
  return Object.entries(result.figures.peakMiB).map(([group, mib]) => ({
    id: `${scenario}.peak_mib.${group.replace(/\W+/g, "_")}`,
    label: `peak memory: ${group}`,
    value: mib,
    unit: "MiB",
    ...(limitMiB ? { target: { op: "<=" as const, value: limitMiB } } : {}),
    ...(result.figures.growthMiB[group]
      ? { note: `${result.figures.growthMiB[group]!.early.toFixed(0)} MiB at 10% of results, ${result.figures.growthMiB[group]!.late.toFixed(0)} MiB at 90%` }
      : {}),
  }));
}

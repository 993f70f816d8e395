// Samples the bench's processes once a second: resident memory per process group, and any gauge the scenario reads.
import { descendants } from "../cpu/proc.js";
import { memoryOf } from "./memory.js";
import type { Point } from "./report.js";

export interface Watched {
  /** Group name → how to find its pids now (a workerd restarts with a new pid; several Miniflares have several). */
  groups: Record<string, () => number[]>;
  /** Extra gauges read each tick (e.g. the simulator's held requests). */
  gauges?: Record<string, () => Promise<number>>;
}

export interface Sampler {
  series: Record<string, Point[]>;
  /** Peak resident memory per group over the samples (MiB), and the kernel's own high-water mark per process. */
  peaks(): Record<string, { rssMiB: number; hwmMiB: number }>;
  stop(): Promise<void>;
}

export function startSampler(watched: Watched, t0: number, everyMs = 1000): Sampler {
  const series: Record<string, Point[]> = {};
  const peaks: Record<string, { rssMiB: number; hwmMiB: number }> = {};
  const push = (name: string, v: number) => (series[name] ??= []).push({ t: (performance.now() - t0) / 1000, v });
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const tick = async () => {
    for (const [group, pids] of Object.entries(watched.groups)) {
      let rss = 0;
      let hwm = 0;
      for (const pid of pids()) {
        const memory = memoryOf(pid);
        if (!memory) continue;
        rss += memory.rssMiB;
        hwm = Math.max(hwm, memory.peakMiB);
      }
      push(`rss_mib.${group}`, rss);
      const peak = (peaks[group] ??= { rssMiB: 0, hwmMiB: 0 });
      peak.rssMiB = Math.max(peak.rssMiB, rss);
      peak.hwmMiB = Math.max(peak.hwmMiB, hwm);
    }
    for (const [name, read] of Object.entries(watched.gauges ?? {})) {
      try {
        push(name, await read());
      } catch {
        // A gauge that does not answer this second (its server busy) is a gap in the series, not a failed bench.
      }
    }
  };
  const timer = setInterval(() => {
    if (!stopped) running = running.then(tick);
  }, everyMs);
  void (running = tick());
  return {
    series,
    peaks: () => peaks,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
      await tick();
    },
  };
}

/** The workerd processes below a host process. */
export function workerdPids(hostPid: number): number[] {
  return descendants(hostPid)
    .filter((p) => p.comm === "workerd")
    .map((p) => p.pid);
}

/** The simulator's held chat completions, from its vLLM /metrics. */
export async function simulatorGauge(baseUrl: string, name = "vllm:num_requests_running"): Promise<number> {
  const text = await (await fetch(`${baseUrl.replace(/\/v1$/, "")}/metrics`)).text();
  const line = text.split("\n").find((l) => l.startsWith(`${name}{`));
  return Number(line?.split(" ").pop() ?? Number.NaN);
}

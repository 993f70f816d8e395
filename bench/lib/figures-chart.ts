// The bench's figures as one chart: bench/results.svg, and bench/results.png when Chromium can render it (for the README).
import { writeFileSync } from "node:fs";
import path from "node:path";
import { CHROMIUM_ARGS, chromiumPath } from "../../local/browser.js";
import { type Bar, chart, type Line, type Panel } from "./chart.js";
import type { Figure, Point, ScenarioReport } from "./report.js";

interface Results {
  date: string;
  commit: string;
  quick: boolean;
  machine: { cpu: string; cores: number; memory_gib: number; load_average: number[] };
  scenarios: Record<string, ScenarioReport>;
}

function value(report: ScenarioReport | undefined, id: string): number | null {
  return report?.figures.find((f: Figure) => f.id === id)?.value ?? null;
}

function series(report: ScenarioReport | undefined, name: string): Point[] {
  return report?.series?.[name] ?? [];
}

function memoryLines(report: ScenarioReport | undefined): Line[] {
  return Object.keys(report?.series ?? {})
    .filter((name) => name.startsWith("rss_mib."))
    .map((name) => ({ label: name.slice("rss_mib.".length), points: series(report, name) }));
}

export function panels(results: Results): Panel[] {
  const { efficiency, proxy, burst, scale, inflight, overload } = results.scenarios;
  const out: Panel[] = [];
  if (efficiency) {
    const paths = [
      ["/run (a)", "run"],
      ["jobs (b)", "jobs"],
      ["baseline loop (c)", "baseline"],
    ] as const;
    out.push({
      kind: "bars",
      title: "Single-step tool rollouts per second (zero-latency model)",
      unit: "rollouts/s",
      bars: paths.map(([label, key]): Bar => ({ label, value: value(efficiency, `efficiency.${key}.1-tool.rollouts_per_s`) })),
      target: 700,
      targetLabel: "target 700/s",
    });
    out.push({
      kind: "bars",
      title: "CPU per rollout (ms): single-step and per turn of 10-turn",
      unit: "ms",
      firstLabel: "1-tool, per rollout",
      secondLabel: "10-turn, per turn",
      bars: paths.map(
        ([label, key]): Bar => ({
          label,
          value: value(efficiency, `efficiency.${key}.1-tool.cpu_ms_per_rollout`),
          second: value(efficiency, `efficiency.${key}.10-turn.cpu_ms_per_turn`),
        }),
      ),
      target: 2,
      targetLabel: "target 2 ms (single-step, edgegym)",
    });
  }
  if (scale) {
    out.push({
      kind: "lines",
      title: `${value(scale, "scale.completed") === null ? "Large job" : "One large job"}: results landed, model at 2 s/call`,
      unit: "results",
      xUnit: "seconds since submission",
      lines: [
        { label: "results at the caller", points: series(scale, "results") },
        { label: "model calls held", points: series(scale, "held_requests") },
      ],
    });
    out.push({
      kind: "lines",
      title: "Memory during the large job (MiB)",
      unit: "MiB",
      xUnit: "seconds",
      lines: memoryLines(scale),
      target: 1024,
      targetLabel: "1 GiB",
    });
  }
  if (burst) {
    out.push({
      kind: "lines",
      title: "Rollouts submitted at once, model at 2 s/call",
      unit: "results",
      xUnit: "seconds since submission",
      lines: [
        { label: "results at the caller", points: series(burst, "results") },
        { label: "model calls held", points: series(burst, "held_requests") },
      ],
    });
  }
  if (inflight) {
    const target = Number(inflight.details?.["submitted"] ?? 16_384);
    out.push({
      kind: "lines",
      title: `In flight with a ${Number(inflight.details?.["latency_ms"] ?? 60_000) / 1000} s model: requests held`,
      unit: "requests",
      xUnit: "seconds",
      lines: [
        { label: "model calls held (simulator)", points: series(inflight, "held_requests") },
        { label: "results at the caller", points: series(inflight, "results") },
      ],
      target,
      targetLabel: `${target.toLocaleString("en")} rollouts`,
    });
  }
  if (overload?.series) {
    out.push({
      kind: "lines",
      title: "Overload on /run: calls done (client honours Retry-After)",
      unit: "calls",
      xUnit: "seconds",
      lines: [
        { label: "calls done", points: series(overload, "results") },
        { label: "model calls held", points: series(overload, "held_requests") },
      ],
    });
  }
  if (proxy) {
    out.push({
      kind: "bars",
      title: "Model call latency: direct and through the proxy (ms)",
      unit: "ms",
      firstLabel: "p50",
      secondLabel: "p99",
      bars: [
        { label: "simulator direct", value: value(proxy, "proxy.direct_p50_ms"), second: value(proxy, "proxy.direct_p99_ms") },
        {
          label: "added: /v1/responses",
          value: value(proxy, "proxy.responses_added_p50_ms"),
          second: value(proxy, "proxy.responses_added_p99_ms"),
        },
        { label: "added: chat", value: value(proxy, "proxy.chat_added_p50_ms"), second: value(proxy, "proxy.chat_added_p99_ms") },
      ],
      target: 2,
      targetLabel: "target: p99 added < 2 ms",
    });
  }
  return out;
}

/** Writes results.svg (always) and results.png (when Chromium renders it) beside the results; returns the files written. */
export async function renderChart(results: Results, dir: string): Promise<string[]> {
  const m = results.machine;
  const subtitle = `${results.date.slice(0, 16).replace("T", " ")} UTC · commit ${results.commit.slice(0, 12)} · ${m.cores} × ${m.cpu} · ${m.memory_gib} GiB · load ${m.load_average.join(" ")} at start${results.quick ? " · quick run" : ""}`;
  const svg = chart("edgegym: npm run bench", subtitle, panels(results));
  const svgFile = path.join(dir, "results.svg");
  writeFileSync(svgFile, svg);
  const files = [svgFile];
  try {
    const { chromium } = await import("playwright-core");
    const browser = await chromium.launch({
      executablePath: await chromiumPath(),
      args: ["--headless", ...CHROMIUM_ARGS],
    });
    try {
      const page = await browser.newPage({ deviceScaleFactor: 1 });
      await page.setContent(`<!doctype html><html><body style="margin:0">${svg}</body></html>`);
      const pngFile = path.join(dir, "results.png");
      await page.locator("svg").screenshot({ path: pngFile });
      files.push(pngFile);
    } finally {
      await browser.close();
    }
  } catch (error) {
    // No Chromium here (or it would not start): the SVG stands alone.
    process.stdout.write(`no PNG: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}\n`);
  }
  return files;
}

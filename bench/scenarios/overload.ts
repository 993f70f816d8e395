// Scenario 4, overload on /run: 16,384 trainer calls at once against the gateway's admission limit (the "Trainers"
// contract: MAX_IN_FLIGHT calls at once, the rest refused at once with 503 and Retry-After). No call may be reset, time
// out or be left hanging; every refusal must carry Retry-After; a client that honours it gets every call done.
//
//   npx tsx bench/scenarios/overload.ts [--quick] [--root <checkout>]
//
// A checkout whose gateway has no admission limit (no MAX_IN_FLIGHT variable) is reported as such, not flooded.
import path from "node:path";
import { parseArgs } from "node:util";
import { pathToFileURL } from "node:url";
import { BENCH_ROOT, startHost, startSimulatorProcess } from "../cpu/processes.js";
import { SINGLE_TOOL } from "../cpu/workload.js";
import { loadClient } from "../lib/http.js";
import { emit, type Figure, type Point, percentile, progress } from "../lib/report.js";
import { simulatorGauge, startSampler, workerdPids } from "../lib/sampler.js";

const { values } = parseArgs({ options: { quick: { type: "boolean", default: process.env.BENCH_QUICK === "1" }, root: { type: "string" } } });
const root = path.resolve(values.root ?? BENCH_ROOT);
const CALLS = values.quick ? 2048 : 16_384;
const LATENCY_MS = 2000;
/** An attempt unanswered this long is a call left hanging. */
const HANG_MS = 120_000;
const BUDGET_MS = (values.quick ? 300 : 900) * 1000;
const started = performance.now();
const say = progress("overload", started);
const title = `Overload on /run: ${CALLS.toLocaleString("en")} trainer calls at once against the admission limit, model at 2 s per call`;

const { GatewayVars } = (await import(pathToFileURL(path.join(root, "contracts", "config.ts")).href)) as {
  GatewayVars: { shape: Record<string, unknown>; parse(vars: object): Record<string, unknown> };
};
if (!("MAX_IN_FLIGHT" in GatewayVars.shape)) {
  say("this checkout's gateway has no admission limit (no MAX_IN_FLIGHT): no admission control, not flooded");
  const none = (id: string, label: string): Figure => ({ id: `overload.${id}`, label, value: null, unit: "", note: "no admission control" });
  emit({
    scenario: "overload",
    title,
    seconds: (performance.now() - started) / 1000,
    figures: [none("dropped", "calls reset, timed out or left hanging"), none("all_done", "calls done by a client honouring Retry-After")],
    details: { admission: "none" },
  });
  process.exit(0);
}
const limit = Number(GatewayVars.parse({ ENVIRONMENTS: "", API_TOKENS: "" }).MAX_IN_FLIGHT);

const simulator = await startSimulatorProcess({ latencyMs: LATENCY_MS, nodeFlags: ["--max-old-space-size=4096"] });
// The per-token rate limit is not what this measures: off, so every refusal is the admission limit's.
const host = await startHost(root, simulator, [SINGLE_TOOL.environment], { vars: { gateway: { RATE_LIMIT_PER_SECOND: "0" } } });
try {
  const url = `${host.url}/run?environment=${SINGLE_TOOL.environment}&failures=error`;
  // Two source addresses: 16,384 connections stay well inside one address's ephemeral ports either way.
  const client = loadClient({ timeoutMs: HANG_MS, localAddresses: ["127.0.0.1", "127.0.0.2"] });
  const tally = { done: 0, refused: 0, refusedWithoutRetryAfter: 0, rateLimited: 0, resets: 0, timeouts: 0, errors: 0, otherStatus: 0 };
  const statuses = new Map<number, number>();
  const latencies: number[] = [];
  const retryAfters: number[] = [];
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
  const report = setInterval(() => say(`${tally.done} done, ${tally.refused} refusals so far, ${tally.resets} resets, ${tally.timeouts} hung`), 10_000);
  // The emulation's workerd gone mid-run (it exits on "accept: Too many open files") ends the scenario: nothing more to measure.
  let crashed = false;
  const watch = setInterval(() => {
    if (workerdPids(host.pid).length === 0) {
      crashed = true;
      say("the emulation's workerd exited mid-run: the calls stop here");
    }
  }, 2_000);
  const deadline = t0 + BUDGET_MS;
  say(`admission limit ${limit} (the gateway's default); ${CALLS} calls at once`);

  const call = async (i: number): Promise<void> => {
    const body = JSON.stringify(SINGLE_TOOL.row(i));
    while (performance.now() < deadline && !crashed) {
      const outcome = await client.post(url, body, host.headers);
      if (outcome.kind === "reset") tally.resets++;
      else if (outcome.kind === "timeout") tally.timeouts++;
      else if (outcome.kind === "error") tally.errors++;
      else {
        statuses.set(outcome.status, (statuses.get(outcome.status) ?? 0) + 1);
        if (outcome.status === 200) {
          tally.done++;
          latencies.push((performance.now() - t0) / 1000);
          return;
        }
        const retryAfter = Number(outcome.headers["retry-after"]);
        if (outcome.status === 503 || outcome.status === 429) {
          if (outcome.status === 503) tally.refused++;
          else tally.rateLimited++;
          if (!(retryAfter >= 0)) tally.refusedWithoutRetryAfter++;
          retryAfters.push(retryAfter);
          // Honoured as told, never sooner; a little jitter so callers told the same second do not return together.
          await new Promise((resolve) => setTimeout(resolve, (Number.isFinite(retryAfter) ? retryAfter : 1) * 1000 * (1 + Math.random() * 0.1)));
          continue;
        }
        tally.otherStatus++;
        return;
      }
      // A reset or a hang is counted (it must not happen) and the call tried again, as a trainer would.
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  };
  await Promise.all(Array.from({ length: CALLS }, (_, i) => call(i)));
  clearInterval(report);
  clearInterval(watch);
  await sampler.stop();
  client.close();
  latencies.sort((a, b) => a - b);
  // Calls done over time, for the chart: a point per second.
  const landed: Point[] = [];
  for (let i = 0, second = 0; second <= Math.ceil(latencies.at(-1) ?? 0); second++) {
    while (i < latencies.length && latencies[i]! <= second) i++;
    landed.push({ t: second, v: i });
  }
  sampler.series.results = landed;
  const dropped = tally.resets + tally.timeouts + tally.errors;
  say(`${tally.done} of ${CALLS} done; ${tally.refused} refusals (${tally.refusedWithoutRetryAfter} without Retry-After); ${dropped} dropped`);
  emit({
    scenario: "overload",
    title,
    seconds: (performance.now() - started) / 1000,
    figures: [
      {
        id: "overload.dropped",
        label: "calls reset, timed out or left hanging",
        value: dropped,
        unit: "",
        target: { op: "=", value: 0 },
        note: `${tally.resets} reset, ${tally.timeouts} hung > ${HANG_MS / 1000} s, ${tally.errors} other errors`,
      },
      {
        id: "overload.workerd_up",
        label: "the emulation's workerd stayed up",
        value: crashed ? 0 : 1,
        unit: "",
        target: { op: "=", value: 1 },
        ...(crashed ? { note: "it exited mid-run (its log: accept: Too many open files)" } : {}),
      },
      {
        id: "overload.refusals_without_retry_after",
        label: "refusals without Retry-After",
        value: tally.refusedWithoutRetryAfter,
        unit: "",
        target: { op: "=", value: 0 },
      },
      {
        id: "overload.all_done",
        label: "calls done by a client honouring Retry-After",
        value: (tally.done / CALLS) * 100,
        unit: "%",
        target: { op: ">=", value: 100 },
        note: `${tally.done} of ${CALLS}`,
      },
      { id: "overload.first_result_s", label: "time to first result", value: latencies[0] ?? null, unit: "s", target: { op: "<=", value: 5 } },
      { id: "overload.p50_s", label: "call latency p50 (first attempt → answer)", value: latencies.length ? percentile(latencies, 50) : null, unit: "s" },
      { id: "overload.p99_s", label: "call latency p99 (first attempt → answer)", value: latencies.length ? percentile(latencies, 99) : null, unit: "s" },
      { id: "overload.refusals", label: "refusals (503) along the way", value: tally.refused, unit: "" },
      {
        id: "overload.peak_held",
        label: "model calls held at once (simulator's count)",
        value: Math.max(0, ...(sampler.series.held_requests ?? []).map((p) => p.v)),
        unit: "",
        note: `admission limit ${limit}`,
      },
    ],
    series: sampler.series,
    details: { limit, calls: CALLS, tally, statuses: Object.fromEntries(statuses), retry_after_max: Math.max(0, ...retryAfters.filter(Number.isFinite)) },
  });
} finally {
  await host.stop();
  await simulator.stop();
}

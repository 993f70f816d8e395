// What the garbage collection pacer (local/gc-pacer.ts) costs and saves, A/B in one workerd: jobs of 2,048 rollouts at a
// zero-latency model, with the pacer off and on by turns, each with workerd's CPU per rollout and resident memory after.
//
//   node --import tsx bench/pacer-ab.ts
import { startSimulatorProcess } from "./cpu/processes.js";
import { clockTicksPerSecond, readStat } from "./cpu/proc.js";
import { memoryOf } from "./lib/memory.js";
import { inspectedEmulation } from "./lib/inspector.js";
import { SINGLE_TOOL } from "./cpu/workload.js";
import { workerdPids } from "./lib/sampler.js";
import { startGcPacer } from "../local/gc-pacer.js";

/** workerd's CPU so far, in ms. */
const cpu = () => (workerdPids(process.pid).reduce((sum, pid) => sum + (readStat(pid)?.ticks ?? 0), 0) * 1000) / clockTicksPerSecond();
const rss = () => workerdPids(process.pid).reduce((sum, pid) => sum + (memoryOf(pid)?.rssMiB ?? 0), 0);
const simulator = await startSimulatorProcess({ latencyMs: 0 });
const { miniflare, headers } = await inspectedEmulation([SINGLE_TOOL.environment], simulator);
const url = (await miniflare.ready).toString().replace(/\/$/, "");
const rows = 128;
const body = `${Array.from({ length: rows }, (_, i) => JSON.stringify(SINGLE_TOOL.row(i))).join("\n")}\n`;
const job = async () => {
  const created = await fetch(`${url}/v1/jobs?environment=${SINGLE_TOOL.environment}&num_repeats=16`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/x-ndjson" },
    body,
  });
  const { id } = (await created.json()) as { id: string };
  for (;;) {
    await new Promise((r) => setTimeout(r, 500));
    const info = (await (await fetch(`${url}/v1/jobs/${id}`, { headers })).json()) as { status: string };
    if (info.status !== "running") return;
  }
};
// A first job warms every isolate up; then off and on by turns, so drift in the machine's load falls on both.
await job();
for (const mode of ["off", "on", "off", "on", "off", "on"]) {
  const pacer = mode === "on" ? await startGcPacer(await miniflare.getInspectorURL()) : undefined;
  const c0 = cpu();
  const t0 = performance.now();
  await job();
  const ms = cpu() - c0;
  console.log(
    `pacer ${mode}: workerd ${(ms / (rows * 16)).toFixed(2)} ms CPU per rollout, ${((performance.now() - t0) / 1000).toFixed(1)} s, rss ${rss().toFixed(0)} MiB, collections ${pacer?.collections() ?? 0}`,
  );
  await pacer?.stop();
}
await miniflare.dispose();
await simulator.stop();

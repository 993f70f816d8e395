// CPU profiles of every Worker under a bench workload, through workerd's V8 inspector (not part of `npm run bench`).
//
//   node --experimental-websocket --import tsx bench/profile.ts [--path run|jobs] [--shape 1-tool|10-turn] [--rollouts N] [--out dir]
//
// Starts the simulator (its own process), the emulation's Workers in one Miniflare with an inspector port, samples each
// Worker's isolate while the rollouts run, writes one .cpuprofile per Worker (open in Chrome DevTools or speedscope) and
// prints each Worker's hottest functions by self time.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { startSimulatorProcess } from "./cpu/processes.js";
import { InspectorSession, inspectedEmulation } from "./lib/inspector.js";
import { runDirect, runJob, SINGLE_TOOL, TEN_TURNS } from "./cpu/workload.js";

const { values } = parseArgs({
  options: {
    path: { type: "string", default: "jobs" },
    shape: { type: "string", default: "1-tool" },
    rollouts: { type: "string", default: "1024" },
    out: { type: "string", default: "/tmp/edgegym-profile" },
    interval: { type: "string", default: "200" },
    only: { type: "string" },
  },
});
const shape = values.shape === "10-turn" ? TEN_TURNS : SINGLE_TOOL;
const rollouts = Number(values.rollouts);

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
  startTime: number;
  endTime: number;
}

const simulator = await startSimulatorProcess();
const { miniflare, inspectorPort, headers } = await inspectedEmulation([SINGLE_TOOL.environment, TEN_TURNS.environment], simulator);
try {
  const url = (await miniflare.ready).toString().replace(/\/$/, "");
  const run = () => (values.path === "run" ? runDirect(url, shape, rollouts, 32, headers) : runJob(url, shape, 16, Math.max(1, rollouts / 16), 100, headers));
  // Warm-up: isolates created and JIT warm before sampling; a warm-up that failed says so instead of profiling refusals.
  const warm = await (values.path === "run" ? runDirect(url, shape, 64, 32, headers) : runJob(url, shape, 16, 4, 100, headers));
  if ("failed" in warm && warm.failed > 0) throw new Error(`the warm-up's rollouts failed (${warm.failed} of 64): nothing worth profiling`);
  const targets = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json/list`)).json()) as { title: string; webSocketDebuggerUrl: string }[];
  const sessions = await Promise.all(
    targets
      .filter((target) => !values.only || target.title.includes(values.only))
      .map(async (target) => ({ name: target.title.replace(/^Core:/, ""), session: await InspectorSession.open(target.webSocketDebuggerUrl) })),
  );
  for (const { session } of sessions) {
    await session.send("Profiler.enable");
    await session.send("Profiler.setSamplingInterval", { interval: Number(values.interval) });
    await session.send("Profiler.start");
  }
  const started = performance.now();
  await run();
  const seconds = (performance.now() - started) / 1000;
  mkdirSync(values.out, { recursive: true });
  process.stdout.write(`${rollouts} rollouts (${values.path}, ${shape.name}) in ${seconds.toFixed(1)} s\n`);
  for (const { name, session } of sessions) {
    const { profile } = await session.send<{ profile: Profile }>("Profiler.stop");
    session.close();
    const file = path.join(values.out, `${values.path}-${shape.name}-${name.replace(/[^\w.-]+/g, "_")}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    report(name, profile, rollouts);
  }
  process.stdout.write(`profiles in ${values.out}\n`);
} finally {
  await miniflare.dispose();
  await simulator.stop();
}

/** A Worker's busy time per rollout and its hottest functions by self time. */
function report(name: string, profile: Profile, count: number): void {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) self.set(samples[i]!, (self.get(samples[i]!) ?? 0) + (deltas[i + 1] ?? 0) / 1000);
  let busy = 0;
  const byFunction = new Map<string, number>();
  for (const [id, ms] of self) {
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === "(idle)" || frame.functionName === "(program)") continue;
    busy += ms;
    const key = `${frame.functionName || "(anonymous)"} ${frame.url.split("/").pop()}:${frame.lineNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + ms);
  }
  process.stdout.write(`\n== ${name}: ${busy.toFixed(0)} ms sampled JS, ${(busy / count).toFixed(3)} ms per rollout\n`);
  const top = [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 25);
  for (const [key, ms] of top) process.stdout.write(`${((ms / busy) * 100).toFixed(1).padStart(5)}%  ${(ms / count).toFixed(4)} ms/ro  ${key}\n`);
}

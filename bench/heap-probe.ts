// Each Worker isolate's V8 heap and workerd's resident memory over one job (model at 2 s per call): where workerd's memory goes.
//
//   node --experimental-websocket --import tsx bench/heap-probe.ts [--rollouts 4096] [--snapshot <worker title part>]
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { startSimulatorProcess } from "./cpu/processes.js";
import { InspectorSession, inspectedEmulation } from "./lib/inspector.js";
import { SINGLE_TOOL } from "./cpu/workload.js";
import { workerdPids } from "./lib/sampler.js";
import { memoryOf } from "./lib/memory.js";
import { startGcPacer } from "../local/gc-pacer.js";

const { values } = parseArgs({
  options: {
    rollouts: { type: "string", default: "4096" },
    jobs: { type: "string", default: "1" },
    snapshot: { type: "string" },
    out: { type: "string", default: "/tmp/probe" },
    // The local runtime's collection pacing (local/gc-pacer.ts), as startLocal runs it: off unless a growth in MiB is given.
    pacer: { type: "string" },
  },
});
const rollouts = Number(values.rollouts);

const simulator = await startSimulatorProcess({ latencyMs: 2000, nodeFlags: ["--max-old-space-size=4096"] });
const { miniflare, inspectorPort, headers } = await inspectedEmulation([SINGLE_TOOL.environment], simulator);
const t0 = performance.now();
const line = (text: string) => process.stdout.write(`[${((performance.now() - t0) / 1000).toFixed(0).padStart(4)} s] ${text}\n`);
try {
  const url = (await miniflare.ready).toString().replace(/\/$/, "");
  const targets = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json/list`)).json()) as { title: string; webSocketDebuggerUrl: string }[];
  // workerd lets one inspector session at a time into an isolate: with the pacer holding them, only RSS is sampled.
  const sessions = await Promise.all(
    (values.pacer ? [] : targets).map(async (t) => ({ name: t.title.replace(/^Core:/, ""), session: await InspectorSession.open(t.webSocketDebuggerUrl) })),
  );
  const pacer = values.pacer ? await startGcPacer(await miniflare.getInspectorURL(), { growthMiB: Number(values.pacer) }) : undefined;
  const sample = async (label: string) => {
    const rss = workerdPids(process.pid).reduce((sum, pid) => sum + (memoryOf(pid)?.rssMiB ?? 0), 0);
    const heaps: string[] = [];
    for (const { name, session } of sessions) {
      const usage = await session.send<{ usedSize: number; totalSize: number }>("Runtime.getHeapUsage");
      heaps.push(`${name}=${(usage.usedSize / 2 ** 20).toFixed(0)}/${(usage.totalSize / 2 ** 20).toFixed(0)}`);
    }
    for (const isolate of pacer?.isolates() ?? []) {
      if ((isolate.usedMiB ?? 0) >= 1) heaps.push(`${isolate.name}=${isolate.usedMiB!.toFixed(0)} (${isolate.collections} collections)`);
    }
    line(`${label} workerd rss ${rss.toFixed(0)} MiB; heaps used/total MiB: ${heaps.join(" ")}`);
  };
  const rows = rollouts / 16;
  const body = `${Array.from({ length: rows }, (_, i) => JSON.stringify(SINGLE_TOOL.row(i))).join("\n")}\n`;
  await sample("before");
  // Jobs one after another in the same workerd: memory that comes back for the next job is not held by the last one.
  for (let n = 1; n <= Number(values.jobs); n++) {
    const query = new URLSearchParams({ environment: SINGLE_TOOL.environment, num_repeats: "16" });
    const created = await fetch(`${url}/v1/jobs?${query}`, { method: "POST", headers: { ...headers, "content-type": "application/x-ndjson" }, body });
    const job = (await created.json()) as { id: string };
    for (;;) {
      await new Promise((r) => setTimeout(r, 5000));
      const info = (await (await fetch(`${url}/v1/jobs/${job.id}`, { headers })).json()) as { status: string; counts: { done: number } };
      await sample(`job ${n}: ${info.status} ${info.counts.done} done;`);
      if (info.status !== "running") break;
    }
  }
  await new Promise((r) => setTimeout(r, 10000));
  await sample("10 s later");
  if (pacer) line(`the pacer collected ${pacer.collections()} times`);
  await pacer?.stop();
  // Anonymous (heaps, buffers) against file-backed (mapped files: SQLite, blobs) resident memory, and the largest mappings.
  for (const pid of workerdPids(process.pid)) {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    line(
      `workerd ${pid}: ${status
        .split("\n")
        .filter((l) => /^Rss/.test(l))
        .join("; ")
        .replace(/\s+/g, " ")}`,
    );
    const maps = readFileSync(`/proc/${pid}/smaps`, "utf8").split(/\n(?=[0-9a-f]+-[0-9a-f]+ )/);
    const sized = maps.map((m) => ({ name: m.split("\n")[0]!.split(/\s+/).slice(5).join(" ") || "[anon]", rss: Number(/^Rss:\s+(\d+)/m.exec(m)?.[1] ?? 0) }));
    const byName = new Map<string, number>();
    for (const { name, rss } of sized) byName.set(name, (byName.get(name) ?? 0) + rss);
    for (const [name, kib] of [...byName].sort((a, b) => b[1] - a[1]).slice(0, 8)) line(`  ${(kib / 1024).toFixed(0).padStart(5)} MiB ${name}`);
  }
  if (values.snapshot) {
    for (const { name, session } of sessions.filter((s) => s.name.includes(values.snapshot!))) {
      session.chunks = [];
      await session.send("HeapProfiler.takeHeapSnapshot", { reportProgress: false });
      const file = `${values.out}/${name.replace(/[^\w.-]+/g, "_")}.heapsnapshot`;
      writeFileSync(file, session.chunks.join(""));
      line(`snapshot ${file}`);
    }
    // A snapshot collects its isolate's garbage first: what workerd gives back then was V8 heap not yet collected.
    await sample("after the snapshots (each a full GC)");
  }
  for (const { session } of sessions) session.close();
} finally {
  await miniflare.dispose();
  await simulator.stop();
}

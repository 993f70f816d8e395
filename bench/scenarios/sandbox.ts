// Sandbox figures (issue 28): local sandbox start p50/p99, a code_gen-style verify's CPU and wall time, and how many
// sandboxes start at once before the median start doubles. Skipped, saying why, where the local service cannot isolate code.
//
//   npm run bench -- --only sandbox      (or alone: npx tsx bench/scenarios/sandbox.ts [--quick])
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { HttpSandboxProvider } from "../../environments/sdk/sandbox/http-provider.js";
import { MissingRuntime } from "../../local/sandbox/runtime.js";
import { type SandboxService, startSandboxService } from "../../local/sandbox/service.js";
import { emit, type Figure, percentile, quick } from "../lib/report.js";

const STARTS = quick() ? 20 : 100;
const signal = () => AbortSignal.timeout(120_000);
const began = performance.now();
const report = (figures: Figure[], details?: Record<string, unknown>) =>
  emit({ scenario: "sandbox", title: "Sandboxes (local provider)", seconds: (performance.now() - began) / 1000, figures, ...(details ? { details } : {}) });

/** CPU ms of this process's finished children (the jailed runs it waited for): /proc/self/stat cutime + cstime. */
function childCpuMs(): number {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]?.split(" ") ?? [];
  // After "pid (comm) ", field 16 (cutime) is index 13 and field 17 (cstime) index 14; clock ticks of 10 ms.
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

const boxes = mkdtempSync(path.join(tmpdir(), "edgegym-sandbox-bench-"));
let service: SandboxService;
try {
  service = await startSandboxService({ dir: boxes });
} catch (error) {
  // Skipped, with the reason where the figures would be: the service cannot isolate code here (not root, and no user
  // namespaces for this user), or lacks its runtimes; its error says which and what would fix it.
  rmSync(boxes, { recursive: true, force: true });
  if (!(error instanceof MissingRuntime)) throw error;
  const why = `skipped: ${error.message}`;
  process.stdout.write(`  ${why}\n`);
  report([{ id: "sandbox.start.p50_ms", label: "sandbox start p50 (create + first run)", value: null, unit: "ms", note: why }]);
  process.exit(0);
}
const provider = new HttpSandboxProvider({ kind: "local", url: service.url });

/** One sandbox's start: created, and its first process run to the end (the time a tool waits before its code runs). */
async function start(): Promise<number> {
  const at = performance.now();
  const handle = await provider.create({ runtime: "python" }, signal());
  await provider.run(handle, { command: ["true"] }, signal());
  const took = performance.now() - at;
  await provider.destroy(handle);
  return took;
}

try {
  const starts: number[] = [];
  for (let i = 0; i < STARTS; i++) starts.push(await start());
  starts.sort((a, b) => a - b);

  // A code_gen rollout's verify: a Python solution run once per unit test (stdin in, stdout compared), 10 tests.
  const solution = "n = int(input())\nprint(sum(i * i for i in range(n)))\n";
  const cpuBefore = childCpuMs();
  const verifyStarted = performance.now();
  const handle = await provider.create({ runtime: "python", files: { "solution.py": solution } }, signal());
  for (let test = 0; test < 10; test++) await provider.run(handle, { command: ["python", "solution.py"], stdin: `${1000 * (test + 1)}\n` }, signal());
  await provider.destroy(handle);
  const codeGen = { wall_ms: Math.round(performance.now() - verifyStarted), cpu_ms: childCpuMs() - cpuBefore, tests: 10 };

  // Concurrency: the median start at k sandboxes starting at once, until it is twice the median alone.
  const alone = percentile(starts, 50);
  const concurrency: { sandboxes: number; start_p50_ms: number }[] = [];
  let doubledAt: number | undefined;
  for (const k of [1, 2, 4, 8, 16, 32]) {
    const times = (await Promise.all(Array.from({ length: k }, start))).sort((a, b) => a - b);
    const median = percentile(times, 50);
    concurrency.push({ sandboxes: k, start_p50_ms: Math.round(median) });
    if (median >= 2 * alone) {
      doubledAt = k;
      break;
    }
  }
  report(
    [
      { id: "sandbox.start.p50_ms", label: `sandbox start p50 (create + first run, n=${STARTS})`, value: Math.round(alone), unit: "ms" },
      { id: "sandbox.start.p99_ms", label: `sandbox start p99 (n=${STARTS})`, value: Math.round(percentile(starts, 99)), unit: "ms" },
      { id: "sandbox.code_gen.wall_ms", label: "code_gen-style verify wall (create, 10 tests, destroy)", value: codeGen.wall_ms, unit: "ms" },
      { id: "sandbox.code_gen.cpu_ms", label: "code_gen-style verify CPU of the sandboxed runs", value: codeGen.cpu_ms, unit: "ms" },
      {
        id: "sandbox.start.doubles_at",
        label: "concurrent starts before the median start doubles",
        value: doubledAt ?? null,
        unit: "sandboxes",
        ...(doubledAt === undefined ? { note: "did not double up to 32 at once" } : {}),
      },
    ],
    { concurrency, starts_ms: starts.map(Math.round) },
  );
} finally {
  await service.stop();
  rmSync(boxes, { recursive: true, force: true });
}

// Sandbox figures (issue 28 item 5): local sandbox start p50/p99, a code_gen-style run's CPU and wall time, and how many
// sandboxes start at once before start time doubles. `npx tsx bench/sandbox.ts [--quick]`; prints one JSON object.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { HttpSandboxProvider } from "../environments/sdk/sandbox/http-provider.js";
import { startSandboxService } from "../local/sandbox/service.js";

const { values } = parseArgs({ options: { quick: { type: "boolean", default: false } } });
const STARTS = values.quick ? 20 : 100;
const signal = () => AbortSignal.timeout(120_000);

/** CPU ms of this process's finished children (the jailed runs it waited for): /proc/self/stat cutime + cstime. */
function childCpuMs(): number {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]?.split(" ") ?? [];
  // After "pid (comm) ", field 16 (cutime) is index 13 and field 17 (cstime) index 14; clock ticks of 10 ms.
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

const boxes = mkdtempSync(path.join(tmpdir(), "edgegym-sandbox-bench-"));
const service = await startSandboxService({ dir: boxes });
const provider = new HttpSandboxProvider({ kind: "local", url: service.url });

/** One sandbox's start: created, and its first process run to the end (the time a tool waits before its code runs). */
async function start(): Promise<number> {
  const began = performance.now();
  const handle = await provider.create({ runtime: "python" }, signal());
  await provider.run(handle, { command: ["true"] }, signal());
  const took = performance.now() - began;
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
  const began = performance.now();
  const handle = await provider.create({ runtime: "python", files: { "solution.py": solution } }, signal());
  for (let test = 0; test < 10; test++) await provider.run(handle, { command: ["python", "solution.py"], stdin: `${1000 * (test + 1)}\n` }, signal());
  await provider.destroy(handle);
  const codeGen = { wall_ms: Math.round(performance.now() - began), cpu_ms: childCpuMs() - cpuBefore, tests: 10 };

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
  process.stdout.write(
    `${JSON.stringify(
      {
        sandbox_start_ms: { n: STARTS, p50: Math.round(alone), p99: Math.round(percentile(starts, 99)) },
        code_gen_verify: codeGen,
        concurrency,
        start_doubles_at_sandboxes: doubledAt ?? null,
      },
      null,
      2,
    )}\n`,
  );
} finally {
  await service.stop();
  rmSync(boxes, { recursive: true, force: true });
}

// Jobs-path throughput (rollouts/s, simulator at zero latency) as a ratio to the direct /run path, in the same run.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { collectDirect } from "../local/cli/collect-direct.js";
import { collectJob } from "../local/cli/collect-jobs.js";
import { GatewayClient } from "../local/cli/gateway-client.js";
import { startLocal } from "../local/emulation.js";

const ENVIRONMENT = "example_single_tool_call";
const ROWS = 20;
const REPEATS = Number(process.env.BENCH_REPEATS ?? 20);
const CONCURRENCY = 32;

const dir = mkdtempSync(path.join(tmpdir(), "edgegym-bench-"));
const input = path.join(dir, "rows.jsonl");
writeFileSync(
  input,
  `${Array.from({ length: ROWS }, (_, i) => JSON.stringify({ responses_create_params: { input: `weather in San Francisco, day ${i}?` } })).join("\n")}\n`,
);

const local = await startLocal({ port: 0, persist: false, environments: [ENVIRONMENT] });
try {
  const client = new GatewayClient(local.url, local.token);
  const direct = async () => {
    const started = performance.now();
    const summary = await collectDirect(client, {
      input,
      output: path.join(dir, "direct.jsonl"),
      environment: ENVIRONMENT,
      numRepeats: REPEATS,
      concurrency: CONCURRENCY,
    });
    return { seconds: (performance.now() - started) / 1000, rollouts: summary.rollouts, failed: summary.failed };
  };
  const jobs = async () => {
    const started = performance.now();
    const summary = await collectJob(client, { input, output: path.join(dir, "jobs.jsonl"), environment: ENVIRONMENT, numRepeats: REPEATS, pollMs: 50 });
    return { seconds: (performance.now() - started) / 1000, rollouts: summary.rollouts, failed: summary.failed };
  };
  // Warm both paths (bundles, isolates, Durable Objects) before measuring; then alternate to share the machine's noise.
  await direct();
  await jobs();
  const runs = { direct: [] as number[], jobs: [] as number[] };
  for (let i = 0; i < 3; i++) {
    const d = await direct();
    const j = await jobs();
    if (d.failed || j.failed) throw new Error(`failures during the bench: direct ${d.failed}, jobs ${j.failed}`);
    runs.direct.push(d.rollouts / d.seconds);
    runs.jobs.push(j.rollouts / j.seconds);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const d = median(runs.direct);
  const j = median(runs.jobs);
  process.stdout.write(`rollouts per run: ${ROWS * REPEATS} (${ROWS} rows × ${REPEATS}), ${ENVIRONMENT}, simulator latency 0, 3 runs each (median)\n`);
  process.stdout.write(`direct /run (concurrency ${CONCURRENCY}): ${d.toFixed(1)} rollouts/s  [${runs.direct.map((x) => x.toFixed(0)).join(", ")}]\n`);
  process.stdout.write(`jobs through the queues:         ${j.toFixed(1)} rollouts/s  [${runs.jobs.map((x) => x.toFixed(0)).join(", ")}]\n`);
  process.stdout.write(`ratio jobs / direct: ${(j / d).toFixed(2)}\n`);
} finally {
  await local.stop();
}

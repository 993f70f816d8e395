// `npm start`: the main job. Local emulation with the simulator, every bundled environment's example data collected as a job through the queues.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { exitQuietlyOnBrokenPipe } from "./cli/broken-pipe.js";
import { collectJob } from "./cli/collect-jobs.js";
import { formatProblem } from "./cli/dataset.js";
import { GatewayClient } from "./cli/gateway-client.js";
import { progressBar } from "./cli/progress.js";
import { summaryTable, type TableColumn } from "./cli/table.js";
import { modelFromEnv, policyUrlAllowLine, startLocal } from "./emulation.js";
import { exampleDataset, HARNESS_ONLY } from "./environments.js";
import { localAuth, tokenForLocal } from "./cli/token.js";
import { PROJECT_ROOT } from "./paths.js";

exitQuietlyOnBrokenPipe();
const started = performance.now();
const outDir = path.resolve(process.env.EDGEGYM_OUT_DIR ?? path.join(PROJECT_ROOT, "out"));
mkdirSync(outDir, { recursive: true });

const model = modelFromEnv();
process.stderr.write(`starting the local emulation (model: ${model.modelUrl ?? "the vLLM simulator"})…\n`);
const local = await startLocal({ port: Number(process.env.EDGEGYM_PORT ?? 0), ...model, ...localAuth(process.env.EDGEGYM_TOKEN) });
const columns: TableColumn[] = [];
try {
  process.stderr.write(`gateway at ${local.url}\ndashboard at ${local.url}/ (the jobs below appear there while this runs)\n`);
  if (local.token) process.stderr.write(`dev token (this run only): ${local.token}\n`);
  process.stderr.write(policyUrlAllowLine(local.policyUrlAllow));
  const client = new GatewayClient(local.url, tokenForLocal(local, process.env.EDGEGYM_TOKEN));
  for (const environment of local.environments) {
    const input = exampleDataset(environment);
    if (!input) continue;
    if (HARNESS_ONLY[environment]) {
      process.stderr.write(`not collected: ${environment}: ${HARNESS_ONLY[environment]}\n`);
      continue;
    }
    const summary = await collectJob(client, {
      input,
      output: path.join(outDir, `${environment}.jsonl`),
      environment,
      numRepeats: Number(process.env.EDGEGYM_NUM_REPEATS ?? 4),
      progress: progressBar(environment.padEnd(30)),
    });
    for (const problem of summary.problems) process.stderr.write(`skipped ${formatProblem(problem)}\n`);
    const counts = summary.environments[environment] ?? { rollouts: 0, failed: 0 };
    columns.push({ environment, ...counts });
  }
} finally {
  await local.stop();
}

process.stdout.write(`\n${summaryTable(columns)}\n\n`);
process.stdout.write(`scored rollouts, failures and every metric in ${path.relative(process.cwd(), outDir) || "."}/ (<env>.jsonl, <env>.metrics.json)\n`);
process.stdout.write(`done in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
if (columns.some((c) => c.rollouts === 0)) process.exitCode = 1;

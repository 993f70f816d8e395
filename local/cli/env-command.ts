// `edgegym init <name>`, `edgegym env test <name>` (as NeMo Gym's ng_test) and `edgegym env schema <name>`: make, test, describe one.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Command } from "commander";
import { modelFromEnv, startLocal } from "../emulation.js";
import { discoverEnvironments, exampleDataset } from "../environments.js";
import { PROJECT_ROOT, shownPath } from "../paths.js";
import { collectJob } from "./collect-jobs.js";
import { formatProblem } from "./dataset.js";
import { skeletonRow } from "./env-schema.js";
import { loadEnvironment } from "./environment-runner.js";
import { GatewayClient } from "./gateway-client.js";
import { progressBar } from "./progress.js";
import { scaffoldEnvironment } from "./scaffold.js";
import { metricsTable } from "./table.js";

function vitest(pattern: string): Promise<number> {
  const bin = path.join(PROJECT_ROOT, "node_modules", "vitest", "vitest.mjs");
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, "run", pattern], { cwd: PROJECT_ROOT, stdio: "inherit" });
    child.on("exit", (code) => resolve(code ?? 1));
  });
}

export function initCommand(): Command {
  return new Command("init")
    .description("scaffold a new environment (tool, verify, example data, test) that passes its own test at once")
    .argument("<name>", "lower_snake_case name; the folder environments/<name>")
    .action((name: string) => {
      const { files } = scaffoldEnvironment(PROJECT_ROOT, name);
      // Named from where the user stands (the project's own folder when run there).
      process.stdout.write(`created:\n${files.map((f) => `  ${shownPath(path.join(PROJECT_ROOT, f))}`).join("\n")}\nnext: npx edgegym env test ${name}\n`);
    });
}

export function envCommand(): Command {
  const env = new Command("env").description("work with one environment");
  env
    .command("test <name>")
    .description("run the environment's tests, then collect its example data through the local emulation")
    .option("-n, --num-repeats <n>", "rollouts per example row", (v) => Number(v), 1)
    .action(async (name: string, options: { numRepeats: number }) => {
      if (!discoverEnvironments().includes(name)) throw new Error(`no environment "${name}" (known: ${discoverEnvironments().join(", ")})`);
      const code = await vitest(`tests/environments/${name}`);
      if (code !== 0) throw new Error(`the tests of ${name} failed`);
      const input = exampleDataset(name);
      if (!input) throw new Error(`environments/${name}/data/example.jsonl is missing`);
      const local = await startLocal({ port: 0, persist: false, environments: [name], ...modelFromEnv() });
      try {
        const output = path.join(mkdtempSync(path.join(tmpdir(), `edgegym-${name}-`)), `${name}.jsonl`);
        const summary = await collectJob(new GatewayClient(local.url, local.token), {
          input,
          output,
          environment: name,
          numRepeats: options.numRepeats,
          progress: progressBar(name),
        });
        for (const problem of summary.problems) process.stderr.write(`bad example row: ${formatProblem(problem)}\n`);
        process.stdout.write(`${metricsTable(Object.entries(summary.environments).map(([environment, c]) => ({ environment, ...c })))}\n`);
        process.stdout.write(`rollouts: ${output}\n`);
        if (summary.failed > 0 || summary.problems.length > 0 || summary.rollouts === 0) {
          throw new Error(`${summary.failed} rollout(s) failed, ${summary.problems.length} bad example row(s)`);
        }
      } finally {
        await local.stop();
      }
    });
  env
    .command("schema <name>")
    .description("print the environment's tools as a row offers them in responses_create_params.tools (derived from its zod parameters)")
    .option("--row", "print instead a skeleton row (one JSONL line): input placeholder, the tools, each task field as <its type>")
    .action(async (name: string, options: { row?: boolean }) => {
      const environment = await loadEnvironment(name);
      if (options.row) {
        process.stdout.write(`${JSON.stringify(skeletonRow(environment))}\n`);
        return;
      }
      process.stdout.write(`${JSON.stringify(environment.offered, null, 2)}\n`);
      if (environment.offered.length === 0) {
        process.stderr.write(`${name} serves no tools of its own: a row may offer any (its verify reads the model's calls), or none\n`);
      }
    });
  return env;
}

// The edgegym command line: collect rollouts (through the queues, or --direct through /run), manage jobs, run locally.
import path from "node:path";
import { Command } from "commander";
import { escapeControl } from "../../http/log.js";
import { modelFromEnv, policyUrlAllowLine, startLocal } from "../emulation.js";
import { discoverEnvironments } from "../environments.js";
import { STATE_DIR, shownPath } from "../paths.js";
import { awsCommand } from "./aws-command.js";
import { exitQuietlyOnBrokenPipe } from "./broken-pipe.js";
import { collectCommand } from "./collect-command.js";
import { datasetCommand } from "./dataset-command.js";
import { envCommand, initCommand } from "./env-command.js";
import { jobsCommand } from "./jobs-command.js";
import { logsCommand } from "./logs-command.js";
import { exportCommand, reverifyCommand } from "./offline-commands.js";
import { forgetDevToken, localAuth, saveDevToken } from "./token.js";
import { workerCommand } from "./worker.js";

exitQuietlyOnBrokenPipe();
// The AWS SDK warns on every client it makes under Node < 22 (nine lines on stderr, for a support policy, not this command's
// work): its documented switch turns that off, unless the user set it themselves.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

const program = new Command("edgegym").description("Reinforcement-learning environments for LLM agents, on the edge.");

program.addCommand(collectCommand());
program.addCommand(jobsCommand());
program.addCommand(workerCommand());
program.addCommand(awsCommand());
program.addCommand(datasetCommand());
program.addCommand(exportCommand());
program.addCommand(reverifyCommand());
program.addCommand(initCommand());
program.addCommand(envCommand());

program
  .command("dev")
  .description("run every Worker, queue, Durable Object and bucket locally, with the simulator, until Ctrl-C")
  .option("-p, --port <port>", "gateway port", (v) => Number(v), 8787)
  .option("--environments <a,b>", "run only these environments (default: every one under environments/)", (v: string) =>
    v
      .split(",")
      .map((name) => name.trim())
      .filter(Boolean),
  )
  .option("--state-dir <dir>", "the local state folder: Durable Objects and the bucket in <dir>/state, logs in <dir>/logs", STATE_DIR)
  .option("--remote-config <file>", "remote environments (NeMo Gym resources servers): default EDGEGYM_REMOTE_CONFIG, else ./edgegym.remote.json")
  .action(async (options: { port: number; environments?: string[]; stateDir: string; remoteConfig?: string }) => {
    const stateDir = path.resolve(options.stateDir);
    const known = discoverEnvironments();
    const unknown = (options.environments ?? []).filter((name) => !known.includes(name));
    if (unknown.length) throw new Error(`no environment ${unknown.map((n) => `"${n}"`).join(", ")} (known: ${known.join(", ")})`);
    const local = await startLocal({
      port: options.port,
      ...modelFromEnv(),
      ...localAuth(process.env.EDGEGYM_TOKEN),
      verbose: true,
      environments: options.environments,
      ...(options.remoteConfig ? { remoteConfig: options.remoteConfig } : {}),
      persist: path.join(stateDir, "state"),
      // The queues were in memory: running jobs left by the last process get back what they miss.
      resumeRunning: true,
      logs: { dir: path.join(stateDir, "logs"), echo: true },
    });
    process.stdout.write(
      `edgegym gateway: ${local.url}\ndashboard: ${local.url}/\nmodel: ${local.modelBaseUrl}\nenvironments: ${local.environments.join(", ")}\n`,
    );
    process.stdout.write(policyUrlAllowLine(local.policyUrlAllow));
    // A token made up for this run is shown once and saved where the CLI finds it (`edgegym jobs …` without --token).
    const token = local.token;
    if (token) {
      const file = saveDevToken(token, stateDir);
      // On exit, however it comes (Miniflare's own signal handler may end the process first): the token dies with the run.
      process.once("exit", () => forgetDevToken(token, stateDir));
      // Another state folder than the default: the other commands are told where to look.
      const elsewhere = stateDir === STATE_DIR ? "" : ` (\`edgegym jobs …\` and \`collect --url\` read it with --state-dir ${shownPath(stateDir)})`;
      process.stdout.write(`dev token: ${token}\n  (saved in ${shownPath(file)}${elsewhere}; send it as Authorization: Bearer <token>)\n`);
    }
    for (const job of local.recovered.jobs) process.stdout.write(`resumed job ${job.id}: ${job.resumed} rollout(s) re-enqueued\n`);
    for (const { id, error } of local.recovered.failed) {
      process.stderr.write(
        id
          ? `could not resume job ${id}: ${error}\n  it is left as it was and dev runs on; try again with \`edgegym jobs resume ${id} --only-missing --url ${local.url}\` (a job that stays stalled heals itself)\n`
          : `could not look for running jobs to resume: ${error}\n  dev runs on\n`,
      );
    }
    if (local.logFile) process.stdout.write(`logs: ${local.logFile} (follow with \`edgegym logs --follow\`)\n`);
    const stop = async () => {
      await local.stop();
      process.exit(0);
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });

program.addCommand(logsCommand());

try {
  await program.parseAsync(process.argv);
} catch (error) {
  // A user error reads as one line (or one per bad input line), not a stack trace; what it quotes from outside (a
  // gateway's answer, a row) has its control characters escaped, so it cannot drive the terminal.
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`edgegym: ${message.split("\n").map(escapeControl).join("\n")}\n`);
  process.exitCode = 1;
}

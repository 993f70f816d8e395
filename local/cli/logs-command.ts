// `edgegym logs [--job id] [--follow]`: the local emulation's Worker logs (the newest session under .edgegym/logs/).
import path from "node:path";
import { Command, Option } from "commander";
import { LOG_LEVELS } from "../../contracts/config.js";
import { latestLogFile, type LogFilter, prettyLine, readLog } from "../logs.js";
import { STATE_DIR } from "../paths.js";

export function logsCommand(): Command {
  return new Command("logs")
    .description("show (or --follow) the Worker logs of the local emulation: the newest session in .edgegym/logs/")
    .option("--job <id>", "only lines about this job")
    .option("--rollout <id>", "only lines about this rollout")
    .option("--request <id>", "only lines of this request")
    .option("-e, --environment <name>", "only lines about this environment")
    .addOption(new Option("--level <level>", "the lowest level shown").choices(LOG_LEVELS.filter((l) => l !== "silent")))
    .option("-f, --follow", "keep printing lines as they are written, until Ctrl-C")
    .option("--json", "print the JSON lines as they are")
    .option("--file <file>", "a log file (default: the newest session's)")
    .option("--state-dir <dir>", "the local state folder (as given to `edgegym dev`)", STATE_DIR)
    .action(async (options: LogFilter & { follow?: boolean; json?: boolean; file?: string; stateDir: string }) => {
      const dir = path.join(options.stateDir, "logs");
      const file = options.file ?? latestLogFile(dir);
      if (!file) throw new Error(`no log files in ${dir}: start the local emulation with \`edgegym dev\` (or npm run dev) first`);
      const controller = new AbortController();
      const stop = () => controller.abort();
      process.once("SIGINT", stop);
      try {
        for await (const record of readLog(file, options, { follow: options.follow, signal: controller.signal })) {
          process.stdout.write(`${options.json ? JSON.stringify(record) : prettyLine(record)}\n`);
        }
      } finally {
        process.off("SIGINT", stop);
      }
    });
}

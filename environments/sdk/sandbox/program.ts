// A checker program run once in the session's sandbox: its files written, its result file read back (code_gen, evalplus).
import type { RunLimits, RunResult, Sandbox } from "../../../contracts/sandbox.js";

export interface Program {
  /** Files written before the run, by path relative to the sandbox's working directory (the program's source among them). */
  files: Record<string, string>;
  command: string[];
  /** The file the program writes its verdict to; a stale one is removed before the run. */
  resultFile: string;
  limits?: RunLimits;
}

export interface ProgramOutcome {
  run: RunResult;
  /** The result file's text; undefined when the program never wrote it (killed by a limit, or crashed before). */
  result: string | undefined;
}

/** Bytes of the result file read back (a verdict with per-test details, not the program's output). */
const RESULT_BYTES = 16 << 20;

export async function runProgram(sandbox: Sandbox, program: Program): Promise<ProgramOutcome> {
  for (const [path, content] of Object.entries(program.files)) await sandbox.writeFile(path, content);
  await sandbox.run({ command: ["rm", "-f", "--", program.resultFile] });
  const run = await sandbox.run({ command: program.command, ...(program.limits ? { limits: program.limits } : {}) });
  const read = await sandbox.run({ command: ["cat", "--", program.resultFile], limits: { outputBytes: RESULT_BYTES } });
  return { run, result: read.exitCode === 0 ? read.stdout : undefined };
}

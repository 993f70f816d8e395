// The local emulation's Worker logs: workerd's output split into our JSON log lines (appended to .edgegym/logs/<session>.jsonl,
// echoed readably by `edgegym dev`) and anything else (passed through, control characters escaped); and reading them back for `edgegym logs`.
import { createWriteStream, existsSync, readdirSync, rmSync, statSync, type WriteStream } from "node:fs";
import { open } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { LOG_LEVELS } from "../contracts/config.js";
import { escapeControl } from "../http/log.js";
import { PRIVATE_FILE_MODE, tightenTree } from "./private-files.js";

/** A line of ours: the JSON http/log.ts writes. */
export interface LogRecord {
  level: string;
  worker: string;
  msg: string;
  time?: string;
  [key: string]: unknown;
}

export function parseLogLine(line: string): LogRecord | null {
  if (!line.startsWith("{")) return null;
  try {
    const value = JSON.parse(line) as Partial<LogRecord>;
    return typeof value.level === "string" && typeof value.worker === "string" && typeof value.msg === "string" ? (value as LogRecord) : null;
  } catch {
    // Not JSON after all: a line some other code printed, passed through as it is.
    return null;
  }
}

const SHOWN_FIRST = new Set(["level", "worker", "msg", "time"]);

/**
 * `12:00:01.234 warn  agent  rollout failed  job_id=… rollout_id=… outcome=model_error`: one line, whatever the values
 * hold (a request's path, an upstream's error): their control characters are printed as escapes.
 */
export function prettyLine(record: LogRecord): string {
  const time = record.time ? record.time.slice(11, 23) : "";
  const rest = Object.entries(record)
    .filter(([key]) => !SHOWN_FIRST.has(key))
    .map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`)
    .join(" ");
  return escapeControl(`${time} ${record.level.padEnd(5)} ${record.worker.padEnd(12)} ${record.msg}${rest ? `  ${rest}` : ""}`);
}

export interface CaptureOptions {
  /** Where log lines are appended (a new file per session); none when undefined. */
  file?: string;
  /** Print log lines readably on stdout (what `edgegym dev` does). */
  echo?: boolean;
}

/** A Miniflare `handleRuntimeStdio`: our lines to the file (and stdout when echoing), the rest through as Miniflare would. */
export function captureRuntimeOutput(options: CaptureOptions): { handle: (stdout: Readable, stderr: Readable) => void; close: () => Promise<void> } {
  let sink: WriteStream | undefined;
  if (options.file) {
    tightenTree(path.dirname(options.file));
    sink = createWriteStream(options.file, { flags: "a", mode: PRIVATE_FILE_MODE });
  }
  const onLine = (line: string, stream: NodeJS.WriteStream) => {
    const record = parseLogLine(line);
    if (!record) {
      // Another program's line (workerd's, or a Worker's own console output), which may echo text from outside.
      stream.write(`${escapeControl(line)}\n`);
      return;
    }
    sink?.write(`${line}\n`);
    if (options.echo) process.stdout.write(`${prettyLine(record)}\n`);
  };
  return {
    handle(stdout, stderr) {
      createInterface({ input: stdout, crlfDelay: Number.POSITIVE_INFINITY }).on("line", (line) => onLine(line, process.stdout));
      createInterface({ input: stderr, crlfDelay: Number.POSITIVE_INFINITY }).on("line", (line) => onLine(line, process.stderr));
    },
    close: () => new Promise<void>((resolve) => (sink ? sink.end(resolve) : resolve())),
  };
}

/** Sessions' log files kept in the logs folder: the oldest go when a new session starts. */
const KEPT_SESSIONS = 20;

/** A new session's log file under the logs folder (sessions sort by their start time); the oldest beyond 20 are removed. */
export function sessionLogFile(dir: string): string {
  if (existsSync(dir)) {
    const old = readdirSync(dir)
      .filter((name) => name.endsWith(".jsonl"))
      .sort()
      .slice(0, -(KEPT_SESSIONS - 1));
    for (const name of old) rmSync(path.join(dir, name), { force: true });
  }
  return path.join(dir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${process.pid}.jsonl`);
}

/** The newest session's log file, if any. */
export function latestLogFile(dir: string): string | undefined {
  if (!existsSync(dir)) return undefined;
  const files = readdirSync(dir)
    .filter((name) => name.endsWith(".jsonl"))
    .map((name) => path.join(dir, name));
  return files.sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs || a.localeCompare(b)).at(-1);
}

export interface LogFilter {
  job?: string;
  rollout?: string;
  request?: string;
  environment?: string;
  /** The lowest level shown. */
  level?: (typeof LOG_LEVELS)[number];
}

/** Whether a rollout id is one of the job's: `<job>-<task>-<repeat>` (NeMo Gym's form), or `<job>:<task>:<repeat>` (older jobs). */
function ofJob(rolloutId: unknown, job: string): boolean {
  const id = String(rolloutId ?? "");
  return id.startsWith(`${job}-`) || id.startsWith(`${job}:`);
}

export function matches(record: LogRecord, filter: LogFilter): boolean {
  if (filter.job && record.job_id !== filter.job && !ofJob(record.rollout_id, filter.job)) return false;
  if (filter.rollout && record.rollout_id !== filter.rollout) return false;
  if (filter.request && record.request_id !== filter.request) return false;
  if (filter.environment && record.environment !== filter.environment) return false;
  if (filter.level) {
    const rank = (level: string) => LOG_LEVELS.indexOf(level as (typeof LOG_LEVELS)[number]);
    if (rank(record.level) < rank(filter.level)) return false;
  }
  return true;
}

/** Every matching line of a log file; with `follow`, then the lines appended to it, until the signal aborts. */
export async function* readLog(
  file: string,
  filter: LogFilter,
  options: { follow?: boolean; signal?: AbortSignal; pollMs?: number } = {},
): AsyncGenerator<LogRecord> {
  const handle = await open(file, "r");
  let position = 0;
  let partial = "";
  try {
    for (;;) {
      const { size } = await handle.stat();
      if (size > position) {
        const buffer = Buffer.alloc(size - position);
        await handle.read(buffer, 0, buffer.byteLength, position);
        position = size;
        const text = partial + buffer.toString("utf8");
        const lines = text.split("\n");
        partial = lines.pop() ?? "";
        for (const line of lines) {
          const record = parseLogLine(line);
          if (record && matches(record, filter)) yield record;
        }
      }
      if (!options.follow || options.signal?.aborted) return;
      // An abort ends the wait early (the sleep rejects): the loop's next check returns.
      await sleep(options.pollMs ?? 250, undefined, { signal: options.signal }).catch(() => undefined);
    }
  } finally {
    await handle.close();
  }
}

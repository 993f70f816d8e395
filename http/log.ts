// Structured logs for every Worker: one JSON object a line on console.log (the Workers runtime collects it, Miniflare
// prints it, `edgegym logs` follows it), with the ids that tie a line to a request, job or rollout; secrets never written.

import { LOG_LEVELS } from "../contracts/config.js";

export { LOG_LEVELS };
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The fields a line may carry; any other key is allowed (and redacted when its name says it is a secret). */
export interface LogFields {
  request_id?: string;
  job_id?: string;
  rollout_id?: string;
  environment?: string;
  /** ok, retried, failed, a failure class, a status… */
  outcome?: string | number;
  duration_ms?: number;
  /** An error: its message (and name) are logged, never the object. */
  error?: unknown;
  [key: string]: unknown;
}

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** The same logger with fields added to every line (a request id, a job id…). */
  child(fields: LogFields): Logger;
}

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/** Field names that hold secrets: their values are never written. */
const SECRET_KEY = /(token|secret|password|passwd|authorization|api[-_]?key|cookie|credential|signature)/i;
/** Values that are credentials whatever their field: bearer tokens, basic auth, common key shapes. */
const SECRET_VALUE = /(bearer\s+[\w.~+/=-]+|basic\s+[a-z0-9+/=]{8,}|\bsk-[\w-]{8,}|\bghp_\w{8,})/gi;
const REDACTED = "[redacted]";

function clean(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return value.replace(SECRET_VALUE, REDACTED);
  if (value instanceof Error) return { name: value.name, message: clean(value.message) };
  if (value === null || typeof value !== "object") return value;
  // Logs carry ids and numbers, not documents: nested values are kept shallow.
  if (depth >= 3) return "[…]";
  if (Array.isArray(value)) return value.slice(0, 20).map((v) => clean(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) out[key] = SECRET_KEY.test(key) ? REDACTED : clean(inner, depth + 1);
  return out;
}

/**
 * Characters that act on a terminal or bend a line: C0 and C1 controls, DEL, the line and paragraph separators, and the
 * bidirectional marks and overrides. Text from outside (a path, a header, an upstream's error, a row) may carry any.
 */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const SHORT_ESCAPES: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };
const escapeOne = (char: string) => SHORT_ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;

/** `text` safe to print on one line of a terminal: every control character written as an escape (`\u001b`, `\n`). */
export function escapeControl(text: string): string {
  return text.replace(CONTROL, escapeOne);
}

/** A log line's JSON: level, worker, msg, then the fields, with secrets redacted and an error reduced to its message. */
export function formatLine(level: Exclude<LogLevel, "silent">, worker: string, msg: string, fields: LogFields): string {
  const line: Record<string, unknown> = { level, worker, msg: clean(msg), time: new Date().toISOString() };
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    if (key === "error") {
      line.error = value instanceof Error ? clean(value.message) : clean(String(value));
      if (value instanceof Error && value.name !== "Error") line.error_name = value.name;
      continue;
    }
    line[key] = SECRET_KEY.test(key) ? REDACTED : clean(value);
  }
  // JSON escapes C0 controls itself; the rest (C1, separators, bidi marks) it leaves raw, so they are escaped here the
  // same way (a reader's JSON.parse gets the very text back).
  return JSON.stringify(line).replace(CONTROL, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Where lines go: console.log, which the Workers runtime turns into its logs. */
export type LogSink = (line: string) => void;
// The one console.log in library code: where log lines leave a Worker (the runtime collects console output).
const consoleSink: LogSink = (line) => console.log(line);

/** The level when none is configured: `info`, but silent under a test runner unless EDGEGYM_TEST_LOGS asks for logs. */
export function defaultLevel(): LogLevel {
  // Workers have no `process`; Node (tests, the CLI's offline commands) does.
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  if (env?.VITEST && !env.EDGEGYM_TEST_LOGS) return "silent";
  return "info";
}

export function createLogger(worker: string, level: LogLevel = defaultLevel(), sink: LogSink = consoleSink, base: LogFields = {}): Logger {
  const min = RANK[level];
  const write =
    (lineLevel: Exclude<LogLevel, "silent">) =>
    (msg: string, fields: LogFields = {}) => {
      if (RANK[lineLevel] < min) return;
      sink(formatLine(lineLevel, worker, msg, { ...base, ...fields }));
    };
  return {
    debug: write("debug"),
    info: write("info"),
    warn: write("warn"),
    error: write("error"),
    child: (fields) => createLogger(worker, level, sink, { ...base, ...fields }),
  };
}

/** A logger that writes nothing (tests that assert on other things, library defaults). */
export const silentLog: Logger = createLogger("silent", "silent");

/** One logger per Worker isolate and level, so a Worker's hot path builds none. */
const loggers = new Map<string, Logger>();
/** A LOG_LEVEL variable as written (any case, spaces around): its level, or undefined for the default. */
export function logLevelOf(raw: string | undefined): LogLevel | undefined {
  return LOG_LEVELS.find((l) => l === raw?.trim().toLowerCase());
}

export function workerLogger(worker: string, level: LogLevel | undefined): Logger {
  const key = `${worker}:${level ?? ""}`;
  let logger = loggers.get(key);
  if (!logger) {
    logger = createLogger(worker, level ?? defaultLevel());
    loggers.set(key, logger);
  }
  return logger;
}

/** A caller's request id we keep: 1-128 of letters, digits, `.`, `_`, `:`, `-` (no spaces, nothing a log could misread). */
const WELL_FORMED_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's request id when it is well-formed (so a trace can cross from a client's logs into ours), else a new UUID. */
export function requestId(incoming: string | undefined): string {
  return incoming && WELL_FORMED_ID.test(incoming) ? incoming : crypto.randomUUID();
}

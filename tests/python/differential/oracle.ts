// The differential suite's bridge to CPython: one python3 process per test file, batches of operations as JSON lines.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createInterface, type Interface } from "node:readline";
import { PyError, PythonJsonDecodeError, PythonJsonLimitError, PythonRegexError } from "../../../environments/sdk/python/index.js";

import { inRanges } from "./unicode.js";

const SCRIPT = fileURLToPath(new URL("./oracle.py", import.meta.url));

/** What one operation gave: a value (encoded as below), or the exception's type name and message. */
export type Answer = { ok: unknown } | { err: string; msg: string };

/** A float as its IEEE bits, so -0.0, nan and every last bit cross the pipe unchanged. */
export function f(x: number): { f: string } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  return { f: view.getBigUint64(0).toString(16).padStart(16, "0") };
}

/** A value in the oracle's encoding: bigint → {i}, number → {f}, dicts as [key, value] pairs; what CPython sends back. */
export function encode(value: unknown): unknown {
  if (typeof value === "bigint") return { i: value.toString() };
  if (typeof value === "number") return f(value);
  if (Array.isArray(value)) return value.map(encode);
  if (value !== null && typeof value === "object") return { d: Object.entries(value).map(([k, v]) => [k, encode(v)]) };
  return value ?? null;
}

/** Runs the TS side of one operation and encodes it as the oracle does: PyError becomes {err, msg}. */
export function answerOf(run: () => unknown): Answer {
  try {
    return { ok: encode(run()) };
  } catch (error) {
    if (error instanceof PyError) return { err: error.pyType, msg: error.message };
    if (error instanceof PythonJsonDecodeError || error instanceof PythonJsonLimitError) return { err: error.name, msg: error.message };
    // re.error's class is named "error"; its message is compared only where a test asks.
    if (error instanceof PythonRegexError) return { err: "error", msg: error.message };
    throw error;
  }
}

export class Oracle {
  private readonly lines: Interface;
  private readonly waiting: ((line: string) => void)[] = [];
  private stderr = "";

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    this.lines = createInterface({ input: child.stdout });
    this.lines.on("line", (line) => this.waiting.shift()?.(line));
    child.stderr.on("data", (chunk: Buffer) => {
      this.stderr += chunk.toString();
    });
  }

  /**
   * Starts CPython (`python3` on PATH, or EDGEGYM_PYTHON); rejects with what to install when the executable is
   * missing (the suite fails, never skips).
   */
  static async start(executable = process.env.EDGEGYM_PYTHON || "python3"): Promise<Oracle> {
    const child = spawn(executable, ["-X", "utf8", "-u", SCRIPT], { stdio: ["pipe", "pipe", "pipe"] });
    await new Promise<void>((resolve, reject) => {
      child.once("spawn", () => resolve());
      child.once("error", (error: NodeJS.ErrnoException) => {
        reject(
          error.code === "ENOENT"
            ? new Error(
                `${executable} is not on PATH: the differential suite (tests/python/differential) compares the SDK's Python layer with CPython itself; install Python 3.11 or newer (Debian/Ubuntu: apt-get install python3)`,
              )
            : error,
        );
      });
    });
    return new Oracle(child);
  }

  private request(body: unknown): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const onExit = () => reject(new Error(`python3 exited: ${this.stderr.slice(-2000)}`));
      this.child.once("exit", onExit);
      this.waiting.push((line) => {
        this.child.off("exit", onExit);
        resolve(JSON.parse(line));
      });
      this.child.stdin.write(`${JSON.stringify(body)}\n`);
    });
  }

  /** Adds operations to the oracle's table (Python source that assigns OPS["name"]). */
  async define(source: string): Promise<void> {
    await this.request({ define: source });
  }

  /** Runs a batch: each operation is [name, ...args] with floats as f(x) and ints as {i}. */
  async run(ops: unknown[][]): Promise<Answer[]> {
    return (await this.request({ ops })) as Answer[];
  }

  async version(): Promise<[number, number]> {
    const [answer] = await this.run([["version"]]);
    const ok = (answer as { ok: { i: string }[] }).ok;
    return [Number(ok[0]!.i), Number(ok[1]!.i)];
  }

  /** Whether CPython's Unicode version assigns a code point (newer characters are the engines' version gap). */
  async assigned(): Promise<(cp: number) => boolean> {
    const [answer] = await this.run([["unassigned"]]);
    const ranges = (answer as { ok: { i: string }[][] }).ok.map(([a, b]) => [Number(a!.i), Number(b!.i)] as [number, number]);
    const unassigned = inRanges(ranges);
    return (cp) => !unassigned(cp);
  }

  stop(): void {
    this.child.stdin.end();
    this.child.kill();
  }
}

/** One compared case: the input shown on failure, CPython's answer, ours. */
export interface Case {
  input: unknown;
  python: Answer;
  ours: Answer;
}

/** JSON with every non-ASCII character escaped, so a BOM or U+0085 in a failing input is visible. */
const show = (value: unknown) =>
  JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? `${v}n` : v)).replace(
    /[^\x20-\x7e]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );

/**
 * Throws listing every case where the two answers differ. With `errorMessages: false` two exceptions of the same
 * type count as the same answer (for functions whose TS form returns null where Python raises).
 */
export function assertSame(cases: Case[], errorMessages = true): void {
  const differ = cases.filter(({ python, ours }) => {
    if ("err" in python && "err" in ours) return python.err !== ours.err || (errorMessages && python.msg !== ours.msg);
    return show(python) !== show(ours);
  });
  if (differ.length === 0) return;
  const lines = differ.slice(0, 10).map((c) => `input ${show(c.input)}\n  CPython: ${show(c.python)}\n  ours:    ${show(c.ours)}`);
  throw new Error(`${differ.length} of ${cases.length} cases differ from CPython:\n${lines.join("\n")}`);
}

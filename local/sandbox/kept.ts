// A process kept alive in a local sandbox between calls: one JSON line in, one JSON line back (driver/kernel.py's framing).
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import type { RunResult } from "../../contracts/sandbox.js";
import type { Limits } from "./limits.js";
import { CappedBuffer } from "./run.js";
import { killTree } from "./spawn.js";

/** How long past a call's own wall limit the kept process may take to answer before it is killed. */
const GRACE_MS = 2000;

interface Answer {
  stdout: string;
  stderr: string;
  ok: boolean;
  truncated: boolean;
  stopped?: RunResult["stopped"];
}

export class KeptProcess {
  #pending = Promise.resolve();
  #lines: string[] = [];
  #waiter: ((line: string | undefined) => void) | undefined;
  readonly #stderr = new CappedBuffer(64 << 10);
  #ended = false;

  constructor(
    readonly id: string,
    readonly name: string,
    readonly child: ChildProcessWithoutNullStreams,
  ) {
    let partial = "";
    child.stdout.on("data", (chunk: Buffer) => {
      partial += chunk.toString("utf8");
      if (partial.length > 64 << 20) killTree(child); // an answer line that never ends
      let newline = partial.indexOf("\n");
      while (newline >= 0) {
        this.#deliver(partial.slice(0, newline));
        partial = partial.slice(newline + 1);
        newline = partial.indexOf("\n");
      }
    });
    child.stderr.on("data", (chunk: Buffer) => this.#stderr.push(chunk));
    child.stdin.on("error", () => {});
    child.on("close", () => {
      this.#ended = true;
      this.#waiter?.(undefined);
    });
  }

  get alive(): boolean {
    return !this.#ended;
  }

  #deliver(line: string): void {
    if (this.#waiter) this.#waiter(line);
    else this.#lines.push(line);
  }

  #nextLine(): Promise<string | undefined> {
    const queued = this.#lines.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (this.#ended) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.#waiter = (line) => {
        this.#waiter = undefined;
        resolve(line);
      };
    });
  }

  /** One call at a time; the kernel enforces the call's CPU and wall limits, this its wall limit as a backstop. */
  send(code: string, limits: Limits): Promise<RunResult> {
    const call = this.#pending.then(() => this.#send(code, limits));
    this.#pending = call.then(
      () => {},
      () => {},
    );
    return call;
  }

  async #send(code: string, limits: Limits): Promise<RunResult> {
    const started = Date.now();
    if (this.#ended) return this.#gone(started, false);
    this.child.stdin.write(`${JSON.stringify({ code, cpuSeconds: limits.cpuSeconds, wallMs: limits.wallMs, outputBytes: limits.outputBytes })}\n`);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killTree(this.child);
    }, limits.wallMs + GRACE_MS);
    const line = await this.#nextLine();
    clearTimeout(timer);
    if (line === undefined) return this.#gone(started, timedOut);
    const answer = JSON.parse(line) as Answer;
    const result: RunResult = {
      stdout: answer.stdout,
      stderr: answer.stderr,
      exitCode: answer.ok ? 0 : 1,
      truncated: answer.truncated,
      wallMs: Date.now() - started,
    };
    if (answer.stopped) result.stopped = answer.stopped;
    return result;
  }

  /** The process died (a limit, a crash): its state is lost, which the caller sees. */
  #gone(started: number, timedOut: boolean): RunResult {
    const stderr = this.#stderr.text();
    return {
      stdout: "",
      stderr: `${stderr}${stderr ? "\n" : ""}The kept process "${this.name}" ended; its state is lost.`,
      exitCode: null,
      stopped: timedOut ? "wall_timeout" : "killed",
      truncated: false,
      wallMs: Date.now() - started,
    };
  }

  stop(): void {
    killTree(this.child);
  }
}

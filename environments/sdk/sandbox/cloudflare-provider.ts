// A SandboxProvider over Cloudflare's Sandbox SDK: one container per session, reached through the SDK's stub (getSandbox).
// No runtime import of the SDK here (it needs `cloudflare:workers`): cloudflare.ts hands this file the stubs.
import { z } from "zod";
import type { RunLimits, RunRequest, RunResult, SandboxHandle, SandboxProvider, SandboxSpec } from "../../../contracts/sandbox.js";
import { KEPT_DRIVER_FILE, KEPT_DRIVER_SOURCE } from "./cloudflare-kept.js";
import { SandboxError } from "./errors.js";
import { cleanEnv, type DriverAnswer, fromBase64, insideWorkdir, keptResult, quote, runResult, runScript, toBase64 } from "./cloudflare-run.js";
import { aboveCeiling, effectiveLimits } from "./limits.js";
import { RunLimits as RunLimitsSchema } from "./wire.js";

/**
 * The part of the SDK's sandbox stub (`getSandbox(ns, id)`, an `ISandbox` plus `destroy`) this provider calls; cloudflare.ts
 * assigns the real stub to it, so the compiler checks it against @cloudflare/sandbox's own types.
 */
export interface SandboxStub {
  exec(command: string, options?: { timeout?: number }): Promise<{ exitCode: number; stdout: string; stderr: string }>;
  writeFile(path: string, content: string, options?: { encoding?: string }): Promise<unknown>;
  mkdir(path: string, options?: { recursive?: boolean }): Promise<unknown>;
  startProcess(command: string, options?: { processId?: string }): Promise<{ id: string }>;
  destroy(): Promise<void>;
}

/** The stub for a sandbox id; `sleepAfter` (seconds without a request) is the SDK's own leak bound. */
export type OpenSandbox = (id: string, options: { sleepAfter: number }) => SandboxStub;

/** The sandbox's working directory in the container (the SDK's default). */
export const WORKDIR = "/workspace";
/** The SDK's own exec timeout, past the wall limit our `timeout` enforces: only a container that stopped answering reaches it. */
const BACKSTOP_MS = 15_000;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const KEPT_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/** What the handle carries (stored in the session's Durable Object, parsed when read back). */
const Raw = z.object({
  limits: RunLimitsSchema.default({}),
  env: z.record(z.string(), z.string()).default({}),
  ttlSeconds: z.number().int().positive(),
});
type Raw = z.infer<typeof Raw>;

/** Where things live in the container; the tests point them at a directory of their own. */
export interface ContainerPaths {
  /** The sandbox's working directory (the SDK's default, /workspace). */
  workdir: string;
  /** Where the provider keeps its own files: stdin, the kept-process driver and its FIFOs (/tmp). */
  scratch: string;
}

export class CloudflareSandboxProvider implements SandboxProvider {
  readonly kind = "cloudflare" as const;
  readonly #paths: ContainerPaths;
  readonly #driver: string;
  constructor(
    readonly open: OpenSandbox,
    paths: Partial<ContainerPaths> = {},
  ) {
    this.#paths = { workdir: WORKDIR, scratch: "/tmp", ...paths };
    this.#driver = `${this.#paths.scratch}/${KEPT_DRIVER_FILE}`;
  }

  async create(spec: SandboxSpec, signal: AbortSignal): Promise<SandboxHandle> {
    refuseAboveCeiling(spec.limits);
    for (const name of Object.keys(spec.env ?? {})) checkEnvName(name);
    const raw: Raw = { limits: spec.limits ?? {}, env: spec.env ?? {}, ttlSeconds: spec.ttlSeconds ?? 3600 };
    const handle: SandboxHandle = { id: crypto.randomUUID(), provider: "cloudflare", raw };
    const stub = this.#stub(handle).stub;
    // The first exec starts the container: the sandbox can run commands once it answers.
    const ready = await call(() => stub.exec(`mkdir -p ${quote(this.#paths.workdir)}`), signal, "sandbox_create_failed", "start the container");
    if (ready.exitCode !== 0)
      throw new SandboxError("sandbox_create_failed", `the container could not make ${this.#paths.workdir}: ${ready.stderr.slice(0, 200)}`);
    for (const [file, content] of Object.entries(spec.files ?? {})) await this.writeFile(handle, file, new TextEncoder().encode(content), signal);
    return handle;
  }

  async run(handle: SandboxHandle, request: RunRequest, signal: AbortSignal): Promise<RunResult> {
    const { stub, raw } = this.#stub(handle);
    refuseAboveCeiling(request.limits);
    const limits = effectiveLimits(raw.limits, request.limits);
    const env = { ...raw.env, ...request.env };
    for (const name of Object.keys(env)) checkEnvName(name);
    const cwd = insideWorkdir(this.#paths.workdir, request.cwd ?? ".");
    // The SDK's exec takes no stdin: it goes through a file, removed after the run.
    const stdin = request.stdin === undefined ? undefined : `${this.#paths.scratch}/edgegym-stdin-${crypto.randomUUID()}`;
    if (stdin) await call(() => stub.writeFile(stdin, request.stdin ?? ""), signal, "sandbox_unavailable", "write stdin");
    const started = Date.now();
    let ran: { exitCode: number; stdout: string; stderr: string };
    try {
      ran = await call(
        () => stub.exec(runScript(request.command, cwd, { HOME: this.#paths.workdir, ...env }, limits, stdin), { timeout: limits.wallMs + BACKSTOP_MS }),
        signal,
        "sandbox_unavailable",
        "run",
      );
    } catch (error) {
      // The SDK gave up past our own timeout: the program's wall limit, not the provider's failure.
      if (Date.now() - started >= limits.wallMs && !signal.aborted)
        return { stdout: "", stderr: "", exitCode: null, stopped: "wall_timeout", truncated: false, wallMs: Date.now() - started };
      throw error;
    }
    return runResult(ran, limits, Date.now() - started);
  }

  async writeFile(handle: SandboxHandle, path: string, content: Uint8Array, signal: AbortSignal): Promise<void> {
    const { stub } = this.#stub(handle);
    const target = insideWorkdir(this.#paths.workdir, path);
    const parent = target.slice(0, target.lastIndexOf("/"));
    if (parent !== this.#paths.workdir) await call(() => stub.mkdir(parent, { recursive: true }), signal, "sandbox_unavailable", "make a directory");
    await call(() => stub.writeFile(target, toBase64(content), { encoding: "base64" }), signal, "sandbox_unavailable", "write a file");
  }

  async readFile(handle: SandboxHandle, path: string, maxBytes: number, signal: AbortSignal): Promise<Uint8Array> {
    const { stub } = this.#stub(handle);
    const target = quote(insideWorkdir(this.#paths.workdir, path));
    // Bounded in the container: only the first maxBytes cross to the Worker.
    const read = await call(
      () => stub.exec(`bash -c ${quote(`test -f ${target} || exit 3; head -c ${Math.max(0, Math.floor(maxBytes))} -- ${target} | base64 -w0`)}`),
      signal,
      "sandbox_unavailable",
      "read a file",
    );
    if (read.exitCode === 3) throw new SandboxError("sandbox_refused", `${path}: no such file in the sandbox`, 404);
    if (read.exitCode !== 0) throw new SandboxError("sandbox_unavailable", `reading ${path} failed: ${read.stderr.slice(0, 200)}`);
    return fromBase64(read.stdout.trim());
  }

  async keep(handle: SandboxHandle, name: string, command: string[], signal: AbortSignal): Promise<{ id: string }> {
    const { stub, raw } = this.#stub(handle);
    if (!KEPT_NAME.test(name)) throw new SandboxError("sandbox_refused", `kept process name "${name}": letters, digits, "_", "-", "." only (at most 64)`, 422);
    await call(() => stub.writeFile(this.#driver, KEPT_DRIVER_SOURCE), signal, "sandbox_unavailable", "write the kept-process driver");
    const ensured = await call(() => stub.exec(`python3 ${this.#driver} ensure ${quote(name)}`), signal, "sandbox_unavailable", "find the kept process");
    if (ensured.exitCode !== 0) throw new SandboxError("sandbox_unavailable", `the kept-process driver failed: ${ensured.stderr.slice(0, 300)}`);
    const { id, alive } = z.object({ id: z.string(), alive: z.boolean() }).parse(JSON.parse(ensured.stdout));
    if (alive) return { id };
    // The kernel's limits span its life (memory, file size); CPU and wall are re-armed per call by its own driver.
    const limits = effectiveLimits(raw.limits);
    const start = `cd ${quote(this.#paths.workdir)} && ulimit -v ${limits.memoryMib * 1024} && ulimit -f ${Math.ceil(limits.diskBytes / 1024)} && exec ${cleanEnv({ HOME: this.#paths.workdir, ...raw.env })} python3 ${this.#driver} run ${quote(id)} -- ${command.map(quote).join(" ")}`;
    await call(() => stub.startProcess(`bash -c ${quote(start)}`, { processId: id }), signal, "sandbox_unavailable", "start the kept process");
    return { id };
  }

  async send(handle: SandboxHandle, processId: string, input: string, limits: RunLimits, signal: AbortSignal): Promise<RunResult> {
    const { stub, raw } = this.#stub(handle);
    refuseAboveCeiling(limits);
    const l = effectiveLimits(raw.limits, limits);
    const request = `${this.#paths.scratch}/edgegym-kept-request-${crypto.randomUUID()}`;
    const line = `${JSON.stringify({ code: input, cpuSeconds: l.cpuSeconds, wallMs: l.wallMs, outputBytes: l.outputBytes })}\n`;
    await call(() => stub.writeFile(request, line), signal, "sandbox_unavailable", "write the request");
    const started = Date.now();
    const sent = await call(
      () => stub.exec(`python3 ${this.#driver} send ${quote(processId)} ${request} ${l.wallMs}`, { timeout: l.wallMs + BACKSTOP_MS }),
      signal,
      "sandbox_unavailable",
      "send to the kept process",
    );
    if (sent.exitCode === 3) throw new SandboxError("sandbox_gone", `kept process ${processId} does not exist in sandbox ${handle.id}`, 404);
    if (sent.exitCode !== 0) throw new SandboxError("sandbox_unavailable", `the kept-process driver failed: ${sent.stderr.slice(0, 300)}`);
    return keptResult(JSON.parse(sent.stdout) as DriverAnswer, processId, Date.now() - started);
  }

  async destroy(handle: SandboxHandle): Promise<void> {
    const { stub } = this.#stub(handle);
    await call(() => stub.destroy(), AbortSignal.timeout(30_000), "sandbox_unavailable", "destroy the container");
  }

  #stub(handle: SandboxHandle): { stub: SandboxStub; raw: Raw } {
    const raw = Raw.parse(handle.raw);
    return { stub: this.open(handle.id, { sleepAfter: raw.ttlSeconds }), raw };
  }
}

function refuseAboveCeiling(limits: RunLimits | undefined): void {
  const over = aboveCeiling(limits);
  if (over) throw new SandboxError("sandbox_refused", `limits.${over} is above this provider's ceiling`, 422);
}

function checkEnvName(name: string): void {
  if (!ENV_NAME.test(name)) throw new SandboxError("sandbox_refused", `env: "${name}" is not a variable name`, 422);
}

/** One SDK call bounded by the operation's signal; whatever it throws becomes a SandboxError of `failure`. */
async function call<T>(run: () => Promise<T>, signal: AbortSignal, failure: "sandbox_create_failed" | "sandbox_unavailable", what: string): Promise<T> {
  if (signal.aborted) throw new SandboxError(failure, `the Cloudflare sandbox did not ${what}: the operation's deadline passed`);
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new SandboxError(failure, `the Cloudflare sandbox did not ${what} before the operation's deadline`));
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([run(), aborted]);
  } catch (error) {
    if (error instanceof SandboxError) throw error;
    throw new SandboxError(failure, `the Cloudflare sandbox did not ${what}: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    if (onAbort) signal.removeEventListener("abort", onAbort);
  }
}

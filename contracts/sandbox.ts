// Sandboxes for code the model wrote (issue 28): the handle a tool sees as `ctx.sandbox`, the provider interface behind
// it, provider configuration, and how failures map to rollout outcomes. Types only; NeMo Gym's counterpart is
// nemo_gym/sandbox/providers/base.py (SandboxProvider: create / exec / upload_file / download_file / status / close).

/** Limits on one process run in a sandbox; each is enforced by the provider, not trusted to the program. */
export interface RunLimits {
  /** CPU seconds (RLIMIT_CPU locally). */
  cpuSeconds?: number;
  /** Wall-clock ms; the process group is killed at it. Never past the operation's deadline (ToolCallContext.deadlineAt). */
  wallMs?: number;
  /** Address space / cgroup memory, MiB. */
  memoryMib?: number;
  /** Processes and threads at once (RLIMIT_NPROC / pids.max). */
  processes?: number;
  /** Bytes kept of stdout and of stderr each; what is beyond is dropped and `truncated` says so (the process is not killed). */
  outputBytes?: number;
  /** Bytes the sandbox may write to its disk in all (RLIMIT_FSIZE per file locally). */
  diskBytes?: number;
}

/** What a sandbox is made from. NeMo Gym's SandboxSpec: image, ttl_s, workdir, env, files, resources. */
export interface SandboxSpec {
  /** A named runtime the provider knows ("python" with numpy/scipy/pandas, "node"); an image name for container providers. */
  runtime: string;
  /** Defaults for every run; a run may only lower them. */
  limits?: RunLimits;
  /** Seconds the sandbox lives after its last use before the provider destroys it unasked (a leak bound, not the session TTL). */
  ttlSeconds?: number;
  /** Files written before the first run, by path relative to the working directory. */
  files?: Record<string, string>;
  /** Environment variables; never the host's (a sandbox sees only these). */
  env?: Record<string, string>;
}

/** One command or program. NeMo Gym's exec(command, cwd, env, timeout_s). */
export interface RunRequest {
  /** argv, run without a shell; `["bash", "-c", script]` when a shell is wanted. */
  command: string[];
  stdin?: string;
  /** Relative to the sandbox's working directory. */
  cwd?: string;
  env?: Record<string, string>;
  limits?: RunLimits;
}

/** Why a run ended other than by exiting on its own. */
export type RunStop = "wall_timeout" | "cpu_timeout" | "memory" | "output" | "killed";

/** NeMo Gym's SandboxExecResult (stdout, stderr, return_code, error_type), plus which limit stopped it. */
export interface RunResult {
  stdout: string;
  stderr: string;
  /** The exit code; null when the process was killed by a signal or a limit. */
  exitCode: number | null;
  /** Set when a limit or the provider ended the process. */
  stopped?: RunStop;
  /** stdout or stderr passed `outputBytes` and was cut. */
  truncated: boolean;
  wallMs: number;
  cpuMs?: number;
}

/**
 * A process kept alive between tool calls (a Python kernel whose variables survive): each `send` writes one request to
 * its stdin and reads one answer, framed by the runtime's driver (the provider ships the driver; a tool sends code).
 */
export interface KeptProcess {
  readonly id: string;
  send(input: string, limits?: RunLimits): Promise<RunResult>;
  stop(): Promise<void>;
}

/**
 * The sandbox as a tool or verifier sees it (`ctx.sandbox`): one per session, created on first use with the environment's
 * declared SandboxSpec, owned by the session's Durable Object (or the in-process session on AWS). Every call is bounded
 * by the operation's signal as well as its own limits.
 */
export interface Sandbox {
  run(request: RunRequest): Promise<RunResult>;
  writeFile(path: string, content: string | Uint8Array): Promise<void>;
  /** Refuses paths outside the working directory; `maxBytes` bounds what comes back. */
  readFile(path: string, maxBytes?: number): Promise<Uint8Array>;
  /** Starts (or returns the live one of) the named kept process: `keep("python")` is the session's kernel. */
  keep(name: string, command: string[]): Promise<KeptProcess>;
  /** Destroys it now (the next use creates a fresh one); the session's expiry does the same unasked. */
  destroy(): Promise<void>;
}

/** The provider's own handle: an id and whatever the provider needs to find it again (NeMo Gym's SandboxHandle.raw). */
export interface SandboxHandle {
  id: string;
  provider: SandboxProviderConfig["kind"];
  /** Provider-owned, JSON: stored in the session's Durable Object so a new isolate can reach (or destroy) the sandbox. */
  raw: Record<string, unknown>;
}

/** One interface for every provider, chosen by configuration; the session's Durable Object is its only caller. */
export interface SandboxProvider {
  readonly kind: SandboxProviderConfig["kind"];
  /** Returns once the sandbox can run commands (NeMo Gym: "healthy enough to run commands and transfer files"). */
  create(spec: SandboxSpec, signal: AbortSignal): Promise<SandboxHandle>;
  run(handle: SandboxHandle, request: RunRequest, signal: AbortSignal): Promise<RunResult>;
  writeFile(handle: SandboxHandle, path: string, content: Uint8Array, signal: AbortSignal): Promise<void>;
  readFile(handle: SandboxHandle, path: string, maxBytes: number, signal: AbortSignal): Promise<Uint8Array>;
  /** Starts a kept process, or attaches to it by name if it is alive. */
  keep(handle: SandboxHandle, name: string, command: string[], signal: AbortSignal): Promise<{ id: string }>;
  send(handle: SandboxHandle, processId: string, input: string, limits: RunLimits, signal: AbortSignal): Promise<RunResult>;
  /** Idempotent: destroying a sandbox already gone is not an error (an alarm may race a late call). */
  destroy(handle: SandboxHandle): Promise<void>;
}

/** The providers, chosen per deployment (not per environment): an environment declares a spec, never a provider. */
export type SandboxProviderConfig =
  | {
      /** Namespaces on this Linux machine (bubblewrap, else unshare), limits by prlimit / cgroups: npm start, dev, tests. */
      kind: "local";
      /** The sandbox service the emulation starts, as the vLLM simulator is reached: loopback only. */
      url: string;
      isolation: "bubblewrap" | "unshare";
    }
  | {
      /** Cloudflare's Sandbox SDK (@cloudflare/sandbox): a container per session behind a Durable Object. */
      kind: "cloudflare";
      /** The binding of the Sandbox Durable Object namespace in the environment Worker. */
      binding: string;
    }
  | {
      /** Any HTTP service speaking edgegym's sandbox protocol (the local provider served through it is the reference). */
      kind: "remote";
      url: string;
      /** Bearer token from a secret, named here, never inlined. */
      tokenSecret?: string;
    };

/**
 * How a sandbox failure ends. A limit hit by the model's code is the *program's* outcome (a RunResult with `stopped`),
 * which the verifier scores like NeMo Gym does (a failed test, reward 0); only the provider failing is an error:
 * - `sandbox_create_failed` (NeMo Gym's SandboxCreateError) and `sandbox_unavailable` (the provider did not answer):
 *   thrown as SandboxError; in a tool → the tool's 500 envelope → the rollout's `tool_error` when it does not answer;
 *   in verify → `verify_error` (infrastructure, retried as a whole, never a reward of 0 the trainer would learn from);
 * - `sandbox_gone` (the provider lost it: TTL, crash): the session's next use creates a fresh one for a stateless run;
 *   a kept process's state is lost, so that call answers an error the model sees;
 * - `sandbox_refused` (a path outside the working directory, a limit above the deployment's ceiling): a 4xx the model sees.
 */
export type SandboxErrorCode = "sandbox_create_failed" | "sandbox_unavailable" | "sandbox_gone" | "sandbox_refused";

/**
 * What the session's Durable Object keeps for its sandbox: the handle, written before `create` returns to the tool, so
 * the object's clean-up alarm (environments/sdk/durable.ts, when the session expires) destroys it even if the Worker
 * that made it crashed. An `EnvironmentSession` with a sandbox record destroys it in `alarm()` before deleteAll().
 */
export interface SandboxRecord {
  handle: SandboxHandle;
  createdAt: number;
  /** Names of live kept processes → provider ids. */
  kept: Record<string, string>;
}

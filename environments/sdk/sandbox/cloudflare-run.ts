// The Cloudflare provider's commands and answers, pure: the bash a run becomes, how its exit reads as a RunResult, paths.
import type { RunResult } from "../../../contracts/sandbox.js";
import { SandboxError } from "./errors.js";
import type { Limits } from "./limits.js";

/** What a program finds on its PATH: the image's Python (numpy, scipy, pandas) and Node (infra/containers/sandbox/Dockerfile). */
const PATH = "/usr/local/bin:/usr/bin:/bin";

export interface DriverAnswer {
  answer?: { stdout: string; stderr: string; ok: boolean; truncated: boolean; stopped?: RunResult["stopped"] };
  gone?: boolean;
  timedOut?: boolean;
  stderr?: string;
}

/** The driver's answer as the local service's kept process reports it (local/sandbox/kept.ts). */
export function keptResult(sent: DriverAnswer, processId: string, wallMs: number): RunResult {
  if (sent.answer) {
    const { answer } = sent;
    return {
      stdout: answer.stdout,
      stderr: answer.stderr,
      exitCode: answer.ok ? 0 : 1,
      truncated: answer.truncated,
      wallMs,
      ...(answer.stopped ? { stopped: answer.stopped } : {}),
    };
  }
  const name = processId.replace(/-[0-9a-f]{12}$/, "");
  const stderr = sent.stderr ?? "";
  return {
    stdout: "",
    stderr: `${stderr}${stderr ? "\n" : ""}The kept process "${name}" ended; its state is lost.`,
    exitCode: null,
    stopped: sent.timedOut ? "wall_timeout" : "killed",
    truncated: false,
    wallMs,
  };
}

/**
 * One run as a bash script: its directory, rlimits (CPU, address space, file size: root in the container is not exempt
 * from these), an environment of only PATH/HOME/LANG and the given variables, and GNU timeout at the wall limit.
 */
export function runScript(command: string[], cwd: string, env: Record<string, string>, limits: Limits, stdin: string | undefined): string {
  const seconds = (limits.wallMs / 1000).toFixed(3);
  const body = [
    `cd -- ${quote(cwd)} || exit 126`,
    `ulimit -t ${Math.ceil(limits.cpuSeconds)} -v ${limits.memoryMib * 1024} -f ${Math.ceil(limits.diskBytes / 1024)} || exit 126`,
    `${cleanEnv(env)} timeout -k 2 ${seconds} ${command.map(quote).join(" ")} < ${stdin ? quote(stdin) : "/dev/null"}`,
    "code=$?",
    ...(stdin ? [`rm -f -- ${quote(stdin)}`] : []),
    "exit $code",
  ].join("\n");
  return `bash -c ${quote(body)}`;
}

/** `env -i` and the only variables a program sees (never the container's own). */
export function cleanEnv(env: Record<string, string>): string {
  const pairs = { PATH, LANG: "C.UTF-8", ...env };
  return ["env", "-i", ...Object.entries(pairs).map(([name, value]) => quote(`${name}=${value}`))].join(" ");
}

const MEMORY_SIGNS = /MemoryError|Cannot allocate memory|std::bad_alloc|heap out of memory|failed to map segment/;

/** The exec's answer as a RunResult: which limit stopped it (as the local service tells them apart), output cut to the limit. */
export function runResult(ran: { exitCode: number; stdout: string; stderr: string }, limits: Limits, wallMs: number): RunResult {
  const code = ran.exitCode;
  let stopped: RunResult["stopped"];
  // timeout's 124 (TERM at the wall limit) or 137 once its KILL followed; a program's own 124 ends before the limit.
  if ((code === 124 || code === 137) && wallMs >= limits.wallMs) stopped = "wall_timeout";
  else if (code === 128 + 24 || code === 128 + 9) stopped = "cpu_timeout";
  else if (code !== 0 && MEMORY_SIGNS.test(ran.stderr)) stopped = "memory";
  else if (code === 128 + 25 || code > 128) stopped = "killed";
  const stdout = cut(ran.stdout, limits.outputBytes);
  const stderr = cut(ran.stderr, limits.outputBytes);
  return {
    stdout: stdout.text,
    stderr: stderr.text,
    exitCode: stopped && stopped !== "memory" ? null : code,
    truncated: stdout.truncated || stderr.truncated,
    wallMs,
    ...(stopped ? { stopped } : {}),
  };
}

/** The first `limit` bytes of `text` (UTF-8), never ending inside a character. */
function cut(text: string, limit: number): { text: string; truncated: boolean } {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= limit) return { text, truncated: false };
  let end = limit;
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return { text: new TextDecoder().decode(bytes.subarray(0, end)), truncated: true };
}

/** A path under the working directory, or sandbox_refused: no absolute path elsewhere, no `..` out of it. */
export function insideWorkdir(workdir: string, path: string): string {
  const relative = path.startsWith(`${workdir}/`) ? path.slice(workdir.length + 1) : path === workdir ? "." : path;
  if (relative.startsWith("/")) throw new SandboxError("sandbox_refused", `${path}: absolute paths are outside the sandbox`, 422);
  const parts: string[] = [];
  for (const part of relative.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (parts.pop() === undefined) throw new SandboxError("sandbox_refused", `${path}: outside the sandbox's directory`, 422);
    } else parts.push(part);
  }
  return [workdir, ...parts].join("/");
}

/** A word for bash: single-quoted, its own quotes escaped. */
export function quote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

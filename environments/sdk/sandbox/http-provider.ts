// A SandboxProvider over edgegym's sandbox protocol (wire.ts): the local service, or any remote one that speaks it.
import type { RunLimits, RunRequest, RunResult, SandboxHandle, SandboxProvider, SandboxSpec } from "../../../contracts/sandbox.js";
import { SandboxError } from "./errors.js";
import { Created, RunResult as RunResultSchema, SandboxErrorBody } from "./wire.js";

export interface HttpProviderOptions {
  kind: "local" | "remote";
  /** Base URL, no trailing slash. */
  url: string;
  /** Sent as `Authorization: Bearer` when set (a remote service's token, from a secret). */
  token?: string;
  fetch?: typeof fetch;
}

export class HttpSandboxProvider implements SandboxProvider {
  readonly kind: "local" | "remote";
  readonly #url: string;
  readonly #token: string | undefined;
  readonly #fetch: typeof fetch;

  constructor(options: HttpProviderOptions) {
    this.kind = options.kind;
    this.#url = options.url.replace(/\/+$/, "");
    this.#token = options.token;
    this.#fetch = options.fetch ?? ((input, init) => fetch(input, init));
  }

  async create(spec: SandboxSpec, signal: AbortSignal): Promise<SandboxHandle> {
    const answer = await this.#call("POST", "/sandboxes", JSON.stringify(spec), signal, "sandbox_create_failed");
    const { id } = Created.parse(await answer.json());
    return { id, provider: this.kind, raw: { url: this.#url } };
  }

  async run(handle: SandboxHandle, request: RunRequest, signal: AbortSignal): Promise<RunResult> {
    const answer = await this.#call("POST", `/sandboxes/${enc(handle.id)}/run`, JSON.stringify(request), signal);
    return RunResultSchema.parse(await answer.json());
  }

  async writeFile(handle: SandboxHandle, path: string, content: Uint8Array, signal: AbortSignal): Promise<void> {
    await this.#call("PUT", `/sandboxes/${enc(handle.id)}/files?path=${enc(path)}`, content, signal);
  }

  async readFile(handle: SandboxHandle, path: string, maxBytes: number, signal: AbortSignal): Promise<Uint8Array> {
    const answer = await this.#call("GET", `/sandboxes/${enc(handle.id)}/files?path=${enc(path)}&max=${maxBytes}`, undefined, signal);
    return new Uint8Array(await answer.arrayBuffer());
  }

  async keep(handle: SandboxHandle, name: string, command: string[], signal: AbortSignal): Promise<{ id: string }> {
    const answer = await this.#call("POST", `/sandboxes/${enc(handle.id)}/kept`, JSON.stringify({ name, command }), signal);
    return Created.parse(await answer.json());
  }

  async send(handle: SandboxHandle, processId: string, input: string, limits: RunLimits, signal: AbortSignal): Promise<RunResult> {
    const answer = await this.#call("POST", `/sandboxes/${enc(handle.id)}/kept/${enc(processId)}/send`, JSON.stringify({ input, limits }), signal);
    return RunResultSchema.parse(await answer.json());
  }

  async destroy(handle: SandboxHandle): Promise<void> {
    await this.#call("DELETE", `/sandboxes/${enc(handle.id)}`, undefined, AbortSignal.timeout(30_000));
  }

  /** One request; a non-2xx answer becomes a SandboxError with the service's own code, no answer `sandbox_unavailable`. */
  async #call(
    method: string,
    path: string,
    body: BodyInit | undefined,
    signal: AbortSignal,
    failure: "sandbox_create_failed" | "sandbox_unavailable" = "sandbox_unavailable",
  ): Promise<Response> {
    const headers: Record<string, string> = {};
    if (typeof body === "string") headers["content-type"] = "application/json";
    if (this.#token) headers.authorization = `Bearer ${this.#token}`;
    let answer: Response;
    try {
      answer = await this.#fetch(`${this.#url}${path}`, { method, body, headers, signal });
    } catch (error) {
      throw new SandboxError(
        failure,
        `the ${this.kind} sandbox service did not answer ${method} ${path}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    if (answer.ok) return answer;
    const text = await answer.text();
    const parsed = SandboxErrorBody.safeParse(safeJson(text));
    if (parsed.success) {
      const code = parsed.data.error.code === "sandbox_create_failed" ? failure : parsed.data.error.code;
      throw new SandboxError(code, parsed.data.error.message, answer.status);
    }
    throw new SandboxError(answer.status === 404 ? "sandbox_gone" : failure, `${method} ${path}: HTTP ${answer.status} ${text.slice(0, 200)}`, answer.status);
  }
}

function enc(value: string): string {
  return encodeURIComponent(value);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

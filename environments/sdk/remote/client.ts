// NeMo Gym's resources-server routes over fetch (contracts/remote.ts RemoteCalls), with the pool, the cookie jar, the
// bounds and the one retry rule: only what provably did not reach the server is tried again.
import type { RemoteEnvironmentConfig, RemoteFault, RemoteSession, ReverifyMode } from "../../../contracts/remote.js";
import type { AggregateMetrics, DatasetRow, VerifyRequest } from "../../../protocol/index.js";
import { nextCookie } from "./cookies.js";
import { Pool } from "./pool.js";

/** A call that could not be answered as NeMo Gym's protocol says; `fault` is contracts/remote.ts's class of it. */
export class RemoteFaultError extends Error {
  constructor(
    readonly fault: RemoteFault,
    message: string,
    readonly status?: number,
  ) {
    super(`${fault}: ${message}`);
    this.name = "RemoteFaultError";
  }
}

/** A remote answer: its status, its body's text as the server wrote it, and the session after it. */
export interface RemoteReply {
  status: number;
  text: string;
  session: RemoteSession;
}

export interface RemoteClientOptions {
  /** Secret values by name (Worker bindings, process.env): only the ones the config's auth names are read. */
  secrets: Record<string, unknown>;
  fetch?: typeof fetch;
  /** Pause between tries of a call that did not reach the server. */
  retryDelayMs?: number;
}

/** Errors a fetch throws when nothing was sent: refused, no such host. (A reset may come after the request was read.) */
const NOT_SENT = /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|connection refused|connect(ion)? (error|failed)|No such host|DNS/i;

function notSent(error: unknown): boolean {
  const parts: string[] = [];
  for (let e: unknown = error; e && parts.length < 4; e = (e as { cause?: unknown }).cause) {
    parts.push(String((e as { message?: unknown }).message ?? e), String((e as { code?: unknown }).code ?? ""));
  }
  return NOT_SENT.test(parts.join(" "));
}

/** The body's text, at most `max` bytes: a larger answer is a fault, read no further. */
async function readText(response: Response, max: number): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      throw new RemoteFaultError("remote_bad_answer", `the answer is larger than maxResponseBytes (${max})`);
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(all);
}

/** Every Set-Cookie header (getSetCookie where the runtime's types lack it: workerd and Node both have it). */
function setCookies(headers: Headers): string[] {
  const all = (headers as Headers & { getSetCookie?: () => string[] }).getSetCookie;
  if (all) return all.call(headers);
  const one = headers.get("set-cookie");
  return one ? [one] : [];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class RemoteClient {
  readonly pool: Pool;
  readonly #fetch: typeof fetch;
  readonly #auth: Record<string, string>;
  readonly #retryDelayMs: number;

  constructor(
    readonly config: RemoteEnvironmentConfig,
    options: RemoteClientOptions,
  ) {
    this.pool = new Pool(config.baseUrls, config.concurrency);
    this.#fetch = options.fetch ?? ((input, init) => fetch(input, init));
    this.#retryDelayMs = options.retryDelayMs ?? 50;
    this.#auth = authHeaders(config, options.secrets);
  }

  /** One request to one member, bounded by callMs and the caller's signal; the reply keeps the raw text. */
  async #send(session: RemoteSession, method: "GET" | "POST", route: string, body: unknown, signal: AbortSignal): Promise<RemoteReply> {
    const headers: Record<string, string> = { ...this.#auth, accept: "application/json" };
    if (session.cookie) headers.cookie = session.cookie;
    if (method === "POST") headers["content-type"] = "application/json";
    const bound = AbortSignal.any([signal, AbortSignal.timeout(this.config.timeouts.callMs)]);
    const url = `${session.baseUrl}/${route}`;
    const response = await this.pool.limited(session.baseUrl, bound, async () => {
      try {
        return await this.#fetch(url, { method, headers, body: method === "POST" ? JSON.stringify(body ?? {}) : undefined, signal: bound, redirect: "manual" });
      } catch (error) {
        if (bound.aborted)
          throw new RemoteFaultError("remote_timeout", `${route} on ${session.baseUrl} did not answer within ${this.config.timeouts.callMs} ms`);
        if (notSent(error)) throw new RemoteFaultError("remote_unreachable", `${session.baseUrl} refused the connection`);
        throw new RemoteFaultError("remote_unreachable", `${route} on ${session.baseUrl} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
    let text: string;
    try {
      text = await readText(response, this.config.maxResponseBytes);
    } catch (error) {
      if (error instanceof RemoteFaultError) throw error;
      throw new RemoteFaultError(bound.aborted ? "remote_timeout" : "remote_unreachable", `${route}'s answer from ${session.baseUrl} broke off`);
    }
    const cookie = nextCookie(session.cookie, setCookies(response.headers), this.config.maxCookieBytes);
    if (cookie === null) throw new RemoteFaultError("remote_bad_answer", `the server's cookies pass maxCookieBytes (${this.config.maxCookieBytes})`);
    return { status: response.status, text, session: { baseUrl: session.baseUrl, cookie } };
  }

  /**
   * A call tried again only while it provably did not reach the server (refused), within connectMs in all; every other
   * failure is final. `members` are tried in order (a seed's pool order; a session's one member).
   */
  async #tries(members: string[], cookie: string, method: "GET" | "POST", route: string, body: unknown, signal: AbortSignal): Promise<RemoteReply> {
    const until = Date.now() + this.config.timeouts.connectMs;
    for (let attempt = 0; ; attempt++) {
      const baseUrl = members[attempt % members.length]!;
      try {
        const reply = await this.#send({ baseUrl, cookie }, method, route, body, signal);
        if (reply.status >= 500) this.pool.failed(baseUrl);
        else this.pool.succeeded(baseUrl);
        return reply;
      } catch (error) {
        const refused = error instanceof RemoteFaultError && error.fault === "remote_unreachable" && error.message.includes("refused the connection");
        this.pool.failed(baseUrl);
        if (!refused || signal.aborted || Date.now() >= until || attempt >= members.length + 2) throw error;
        if (attempt + 1 >= members.length) await sleep(this.#retryDelayMs);
      }
    }
  }

  /** POST /seed_session with the row: a new session on the first member that answers. */
  seedSession(row: DatasetRow, signal: AbortSignal): Promise<RemoteReply> {
    return this.#tries(this.pool.order(), "", "POST", "seed_session", row, signal);
  }

  /** POST /<name> with the arguments, on the session's member with its cookie. Never sent twice. */
  tool(session: RemoteSession, name: string, args: unknown, signal: AbortSignal): Promise<RemoteReply> {
    return this.#tries([session.baseUrl], session.cookie, "POST", encodeURIComponent(name), args, signal);
  }

  verify(session: RemoteSession, request: VerifyRequest, signal: AbortSignal): Promise<RemoteReply> {
    return this.#tries([session.baseUrl], session.cookie, "POST", "verify", request, signal);
  }

  /** POST /aggregate_metrics on any member; the server's AggregateMetrics. */
  async aggregateMetrics(verifyResponses: unknown[], signal: AbortSignal): Promise<AggregateMetrics> {
    const reply = await this.#tries(this.pool.order(), "", "POST", "aggregate_metrics", { verify_responses: verifyResponses }, signal);
    if (reply.status !== 200) throw new RemoteFaultError("remote_status", `/aggregate_metrics answered ${reply.status}`, reply.status);
    const body = parseJson(reply.text);
    if (!body || typeof body !== "object") throw new RemoteFaultError("remote_bad_answer", "/aggregate_metrics answered no JSON object");
    return body as AggregateMetrics;
  }

  /** GET /reverify_mode (NeMo Gym answers the mode as a JSON string); `unknown` when the server has no such route. */
  async reverifyMode(signal: AbortSignal): Promise<ReverifyMode> {
    if (this.config.reverify) return this.config.reverify;
    const reply = await this.#tries(this.pool.order(), "", "GET", "reverify_mode", undefined, signal);
    const body = reply.status === 200 ? parseJson(reply.text) : undefined;
    return body === "stateless" || body === "unsupported" ? body : "unknown";
  }
}

/** JSON, or undefined for a body that is not. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The auth headers from the named secrets; a missing secret is a configuration error said at once (without values). */
function authHeaders(config: RemoteEnvironmentConfig, secrets: Record<string, unknown>): Record<string, string> {
  const value = (name: string) => {
    const found = secrets[name];
    if (typeof found !== "string" || found === "") throw new Error(`remote environment ${config.name}: the secret ${name} is not set`);
    return found;
  };
  if (config.auth.kind === "bearer") return { authorization: `Bearer ${value(config.auth.secret)}` };
  if (config.auth.kind === "headers") return Object.fromEntries(Object.entries(config.auth.secrets).map(([header, secret]) => [header, value(secret)]));
  return {};
}

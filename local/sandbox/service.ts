// The local sandbox service: edgegym's sandbox protocol (environments/sdk/sandbox/wire.ts) over HTTP on loopback.
import { execFile } from "node:child_process";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { promisify } from "node:util";
import type { z } from "zod";
import { type Created, KeepRequest, RunRequest, SandboxSpec, SendRequest } from "../../environments/sdk/sandbox/wire.js";
import { STATE_DIR } from "../paths.js";
import { OutsideSandbox } from "./paths.js";
import { MissingRuntime, runtimes, type SetupLog } from "./runtime.js";
import { SandboxGone, SandboxRefused, SandboxStore } from "./store.js";

const exec = promisify(execFile);

export interface SandboxServiceOptions {
  port?: number;
  /** Where sandboxes' directories go (default .edgegym/sandbox/boxes). */
  dir?: string;
  /** One-time setup progress (the venv). */
  log?: SetupLog;
  /** Bytes a request body may carry (a file written), default 64 MiB. */
  maxBodyBytes?: number;
}

export interface SandboxService {
  url: string;
  store: SandboxStore;
  stop(): Promise<void>;
}

class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues?: unknown[],
  ) {
    super(message);
  }
}

/**
 * As root, each sandbox gets a uid of its own; as any other user it needs unprivileged user namespaces (Debian's and
 * Ubuntu's default). Without them the machine cannot isolate code here, and says what would.
 */
async function canIsolate(): Promise<void> {
  if (process.getuid?.() === 0) return;
  try {
    await exec("unshare", ["--user", "--map-root-user", "--net", "--pid", "--fork", "--mount", "true"], { timeout: 10_000 });
  } catch (error) {
    throw new MissingRuntime(
      `The local sandbox needs Linux user namespaces, which this user may not create (${String(error).split("\n")[0]}). ` +
        "Run as root, enable them once (`sudo sysctl -w kernel.unprivileged_userns_clone=1`, or on Ubuntu 24.04+ " +
        "`sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0`), or set a remote sandbox provider (README, Sandboxes).",
    );
  }
}

/** Starts the service on 127.0.0.1 once the runtimes are ready (the venv is made here on first use). */
export async function startSandboxService(options: SandboxServiceOptions = {}): Promise<SandboxService> {
  await canIsolate();
  const store = new SandboxStore(options.dir ?? path.join(STATE_DIR, "sandbox", "boxes"), await runtimes(options.log));
  const maxBody = options.maxBodyBytes ?? 64 << 20;
  const server = createServer((request, response) => {
    handle(store, request, response, maxBody).catch((error: unknown) => answerError(response, error));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    store,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await store.destroyAll();
    },
  };
}

async function handle(store: SandboxStore, request: IncomingMessage, response: ServerResponse, maxBody: number): Promise<void> {
  const url = new URL(request.url ?? "/", "http://sandbox");
  const parts = url.pathname.split("/").filter(Boolean);
  const method = request.method ?? "GET";
  const abort = new AbortController();
  response.on("close", () => abort.abort());
  if (method === "GET" && url.pathname === "/health") return json(response, 200, { ok: true, sandboxes: store.size });
  if (parts[0] !== "sandboxes") throw new HttpProblem(404, "not_found", `no route ${method} ${url.pathname}`);
  const [, id, what, keptId, verb] = parts;
  if (method === "POST" && parts.length === 1) {
    const spec = parse(SandboxSpec, await readJson(request, maxBody));
    return json(response, 201, { id: await store.create(spec) } satisfies Created);
  }
  if (!id) throw new HttpProblem(404, "not_found", `no route ${method} ${url.pathname}`);
  if (method === "DELETE" && parts.length === 2) {
    await store.destroy(id);
    return empty(response);
  }
  if (method === "POST" && what === "run" && parts.length === 3) {
    return json(response, 200, await store.run(id, parse(RunRequest, await readJson(request, maxBody)), abort.signal));
  }
  if (what === "files" && parts.length === 3) {
    const file = url.searchParams.get("path");
    if (!file) throw new HttpProblem(400, "sandbox_refused", "the query parameter `path` is required", [{ path: ["path"], message: "Required" }]);
    if (method === "PUT") {
      await store.writeFile(id, file, await readBody(request, maxBody));
      return empty(response);
    }
    if (method === "GET") {
      const max = Number(url.searchParams.get("max") ?? 1 << 20);
      if (!Number.isInteger(max) || max <= 0 || max > maxBody)
        throw new HttpProblem(400, "sandbox_refused", `max must be an integer in 1..${maxBody}`, [{ path: ["max"] }]);
      const bytes = await store.readFile(id, file, max);
      response.writeHead(200, { "content-type": "application/octet-stream" }).end(bytes);
      return;
    }
  }
  if (method === "POST" && what === "kept" && parts.length === 3) {
    const body = parse(KeepRequest, await readJson(request, maxBody));
    return json(response, 200, { id: store.keep(id, body.name, body.command) } satisfies Created);
  }
  if (method === "POST" && what === "kept" && keptId && verb === "send" && parts.length === 5) {
    const body = parse(SendRequest, await readJson(request, maxBody));
    return json(response, 200, await store.send(id, keptId, body.input, body.limits));
  }
  throw new HttpProblem(404, "not_found", `no route ${method} ${url.pathname}`);
}

function parse<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => ({ path: issue.path, message: issue.message }));
  const first = issues[0];
  throw new HttpProblem(422, "sandbox_refused", `${first?.path.join(".") || "(body)"}: ${first?.message}`, issues);
}

async function readBody(request: IncomingMessage, maxBody: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBody) throw new HttpProblem(413, "sandbox_refused", `body above ${maxBody} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

async function readJson(request: IncomingMessage, maxBody: number): Promise<unknown> {
  const text = (await readBody(request, maxBody)).toString("utf8");
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpProblem(400, "sandbox_refused", "the body is not JSON");
  }
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

function empty(response: ServerResponse): void {
  response.writeHead(204).end();
}

function answerError(response: ServerResponse, error: unknown): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const problem =
    error instanceof HttpProblem
      ? error
      : error instanceof SandboxGone
        ? new HttpProblem(404, "sandbox_gone", error.message)
        : error instanceof SandboxRefused || error instanceof OutsideSandbox
          ? new HttpProblem(403, "sandbox_refused", error.message)
          : new HttpProblem(500, "sandbox_create_failed", error instanceof Error ? error.message : String(error));
  json(response, problem.status, { error: { code: problem.code, message: problem.message, ...(problem.issues ? { issues: problem.issues } : {}) } });
}

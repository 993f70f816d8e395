// workerd's V8 inspector for the bench's probes (bench/profile.ts, bench/heap-probe.ts): a free port to open it on, and a
// Chrome DevTools Protocol session over one isolate's WebSocket.
import { createServer } from "node:net";
import { Log, LogLevel, Miniflare } from "miniflare";
import { topology } from "../../infra/topology.js";
import { buildWorkers } from "../../local/build.js";
import { workerOptions } from "../../local/emulation.js";
import { BENCH_TOKEN } from "../cpu/workload.js";

/** A loopback port nothing listens on now (taken, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

/** A Chrome DevTools Protocol session over one inspector WebSocket; heap snapshot chunks are gathered in `chunks`. */
export class InspectorSession {
  private next = 1;
  private readonly waiting = new Map<number, (value: unknown) => void>();
  chunks: string[] = [];
  private constructor(private readonly socket: WebSocket) {
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: unknown; method?: string; params?: { chunk: string } };
      if (message.method === "HeapProfiler.addHeapSnapshotChunk") this.chunks.push(message.params!.chunk);
      if (message.id !== undefined) this.waiting.get(message.id)?.(message.error ? Promise.reject(new Error(JSON.stringify(message.error))) : message.result);
    });
  }
  static open(url: string): Promise<InspectorSession> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url);
      socket.addEventListener("open", () => resolve(new InspectorSession(socket)));
      socket.addEventListener("error", () => reject(new Error(`cannot open ${url}`)));
    });
  }
  send<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = this.next++;
    this.socket.send(JSON.stringify({ id, method, params }));
    return new Promise((resolve) => this.waiting.set(id, resolve as (value: unknown) => void));
  }
  close(): void {
    this.socket.close();
  }
}

/**
 * The emulation's Workers for these environments in one Miniflare with an inspector port open, on the bench's
 * simulator, the gateway taking the bench's own token with no rate limit in the way.
 */
export async function inspectedEmulation(environments: string[], simulator: { baseUrl: string; model: string }) {
  const inspectorPort = await freePort();
  const specs = topology({ environments, modelBaseUrl: simulator.baseUrl, modelName: simulator.model, vars: { gateway: { RATE_LIMIT_PER_SECOND: "0" } } });
  const secrets = {
    API_TOKENS: `bench:${BENCH_TOKEN}:admin`,
    SESSION_SECRET: "edgegym-profile-session-secret-0123456789",
    MODEL_API_KEY: "",
    TENANT_QUOTAS: "",
  };
  const bundles = await buildWorkers(specs);
  const miniflare = new Miniflare({
    workers: specs.map((spec) => workerOptions(spec, bundles.get(spec.name)!, secrets)),
    host: "127.0.0.1",
    port: 0,
    cf: false,
    inspectorPort,
    log: new Log(LogLevel.WARN),
  });
  return { miniflare, inspectorPort, headers: { authorization: `Bearer ${BENCH_TOKEN}` } };
}

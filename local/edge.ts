// The local edge: what Cloudflare's front line is to a deployment, in front of the emulation's workerd. It takes every
// connection at once and hands requests to workerd over a bounded pool of connections, so a flood of callers waits
// here, in order, instead of inside workerd, which closes a connection whose request it has not read within its
// header deadline (15 s): under 16,384 callers at once that was a reset for most of them.
import http from "node:http";
import net from "node:net";
import { EdgegymError } from "../protocol/index.js";

/** Connections to workerd at most: above the gateway's MAX_IN_FLIGHT (1,024 at most), so held calls never starve refusals. */
export const EDGE_UPSTREAM_CONNECTIONS = 1280;
/**
 * Requests waiting here for a connection at most; beyond them a caller is refused at once (503, Retry-After). Room for
 * 16,384 callers at once: the gateway's admission, not the edge, is what refuses a trainer's flood.
 */
export const EDGE_QUEUE = 16_384;
/**
 * How long an idle keep-alive connection is kept, in seconds: longer than the longest Retry-After (60 s), so a caller
 * told to come back finds its connection still there (a close just as it sends again is a reset on its side).
 */
export const EDGE_KEEP_ALIVE_SECONDS = 65;
/** Tries of one request at most, where workerd closed a connection before it could begin the request. */
const EDGE_ATTEMPTS = 3;
/** A body up to this size is kept while it passes, so its request can be sent again. */
const EDGE_REPLAY_BYTES = 1 << 20;
/** How long a connection may take to send a request's headers, in seconds. */
export const EDGE_HEADERS_SECONDS = 60;
/** The longest Retry-After the edge tells a refused caller, in seconds. */
const EDGE_RETRY_AFTER_MAX = 60;

/** Headers of one hop only (RFC 9110 §7.6.1): not passed on in either direction. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade"]);

export interface Edge {
  /** Where callers reach the gateway: http://host:port. */
  url: string;
  close(): Promise<void>;
}

function passedOn(raw: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) if (!HOP_BY_HOP.has(raw[i]!.toLowerCase())) out.push(raw[i]!, raw[i + 1]!);
  return out;
}

/**
 * The request's headers as passed on, with the caller's address in CF-Connecting-IP where the caller sent none, as
 * Miniflare's entry Worker did (a local caller may name one, as the tests of per-address limits do).
 */
function headerObject(raw: string[], address: string | undefined): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  const kept = passedOn(raw);
  for (let i = 0; i < kept.length; i += 2) {
    const name = kept[i]!.toLowerCase();
    const had = headers[name];
    headers[name] = had === undefined ? kept[i + 1]! : [...(Array.isArray(had) ? had : [had]), kept[i + 1]!];
  }
  headers["cf-connecting-ip"] ??= address ?? "unknown";
  return headers;
}

/** A 502 in the gateway's error envelope, when workerd could not be reached or broke off before answering. */
function unreachable(res: http.ServerResponse, error: Error): void {
  const envelope = new EdgegymError(502, "upstream_unreachable", `the local runtime (workerd) did not answer: ${error.message}`).toEnvelope();
  res.writeHead(502, { "content-type": "application/json" }).end(JSON.stringify(envelope));
}

/**
 * A 503 over_capacity, as the gateway's admission answers, when more callers wait here than workerd can take soon. The
 * wait it tells is random over the time the calls ahead need at the pace answers have lately come back, so refused
 * callers return spread out rather than together.
 */
function busy(req: http.IncomingMessage, res: http.ServerResponse, pending: number, answersPerSecond: number): void {
  req.resume();
  const ahead = pending / Math.max(1, answersPerSecond);
  const retryAfter = Math.min(EDGE_RETRY_AFTER_MAX, 1 + Math.floor(Math.random() * Math.max(1, ahead)));
  const message = `${pending} calls are waiting for the local runtime; retry after ${retryAfter} s`;
  const envelope = new EdgegymError(503, "over_capacity", message).toEnvelope();
  res.writeHead(503, { "content-type": "application/json", "retry-after": String(retryAfter) }).end(JSON.stringify(envelope));
}

/** Answers a second, over the last few seconds (a count per second, five buckets). */
function answerPace(): { answered(): void; perSecond(): number } {
  const buckets = new Map<number, number>();
  return {
    answered() {
      const second = Math.floor(Date.now() / 1000);
      buckets.set(second, (buckets.get(second) ?? 0) + 1);
      for (const key of buckets.keys()) if (key < second - 5) buckets.delete(key);
    },
    perSecond() {
      const second = Math.floor(Date.now() / 1000);
      let total = 0;
      for (const [key, count] of buckets) if (key >= second - 5 && key < second) total += count;
      return total / 5;
    },
  };
}

/** A request body as it passes: kept whole up to EDGE_REPLAY_BYTES, so a request workerd never began can be sent again. */
function replayable(req: http.IncomingMessage): { whole(): boolean; bytes(): Buffer } {
  const chunks: Buffer[] = [];
  let size = 0;
  let ended = false;
  req.on("data", (chunk: Buffer) => {
    size += chunk.length;
    if (size <= EDGE_REPLAY_BYTES) chunks.push(chunk);
    else chunks.length = 0;
  });
  req.on("end", () => (ended = true));
  return { whole: () => ended && size <= EDGE_REPLAY_BYTES, bytes: () => Buffer.concat(chunks) };
}

/** Serve `host:port` (0: any free port), passing every request to `upstream` (workerd's own socket). */
export async function startEdge(options: {
  upstream: URL;
  host: string;
  port: number;
  connections?: number;
  queue?: number;
  headersSeconds?: number;
  keepAliveSeconds?: number;
}): Promise<Edge> {
  const target = { host: options.upstream.hostname, port: Number(options.upstream.port) };
  // Idle connections are let go after 2 s, before workerd closes them (5 s).
  const connections = options.connections ?? EDGE_UPSTREAM_CONNECTIONS;
  const agent = new http.Agent({ keepAlive: true, timeout: 2_000, maxSockets: connections });
  // An idle keep-alive connection is closed after `keepAliveSeconds` (workerd: 5), unfinished headers after
  // `headersSeconds` (60 s, Node's own default: a flood's callers may need tens of seconds to write their first
  // request, where workerd gives them 15). No deadline on a request waiting for a connection.
  const headersTimeout = (options.headersSeconds ?? EDGE_HEADERS_SECONDS) * 1000;
  const timeouts = {
    keepAliveTimeout: (options.keepAliveSeconds ?? EDGE_KEEP_ALIVE_SECONDS) * 1000,
    headersTimeout,
    requestTimeout: 0,
    connectionsCheckingInterval: Math.min(1_000, headersTimeout),
  };
  const queue = options.queue ?? EDGE_QUEUE;
  let pending = 0;
  const pace = answerPace();
  // Headers as large as workerd takes them (Node's own 16 KiB cap would answer 431 where workerd answers the request).
  const server = http.createServer({ ...timeouts, maxHeaderSize: 256 * 1024 }, (req, res) => {
    if (pending >= connections + queue) return busy(req, res, pending, pace.perSecond());
    pending++;
    const headers = headerObject(req.rawHeaders, req.socket.remoteAddress);
    const body = replayable(req);
    let upstream: http.ClientRequest;
    res.once("close", () => {
      pending--;
      pace.answered();
      // A caller that goes away cancels its request in workerd too, as it would reaching workerd directly.
      if (!res.writableFinished) upstream.destroy();
    });
    const forward = (attempt: number): void => {
      upstream = http.request({ ...target, agent, method: req.method, path: req.url, headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, passedOn(answer.rawHeaders));
        answer.pipe(res);
        answer.on("error", () => res.destroy());
      });
      const sent = upstream;
      let connected = false;
      sent.on("socket", (socket) => {
        if (sent.reusedSocket) connected = true;
        else socket.once("connect", () => (connected = true));
      });
      sent.on("error", (error) => {
        if (res.headersSent) return res.destroy();
        // Sent again only where workerd cannot have begun it: a kept connection it had just closed as idle (Node's
        // reusedSocket case), or a new one that never connected; and only a body held whole here.
        const unsent = sent.reusedSocket || !connected;
        if (unsent && attempt < EDGE_ATTEMPTS && body.whole() && !res.destroyed) return forward(attempt + 1);
        unreachable(res, error);
      });
      if (attempt === 1) req.pipe(sent);
      else sent.end(body.bytes());
    };
    forward(1);
  });
  // WebSockets (OpenEnv's /ws) go through as bytes, outside the pool: a socket held for an episode is not a request.
  const upgraded = new Set<net.Socket>();
  server.on("upgrade", (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    const upstream = net.connect(target);
    upgraded.add(socket).add(upstream);
    const close = () => {
      socket.destroy();
      upstream.destroy();
      upgraded.delete(socket);
      upgraded.delete(upstream);
    };
    socket.on("close", close);
    upstream.on("close", close);
    upstream.on("error", close);
    socket.on("error", close);
    upstream.on("connect", () => {
      const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      upstream.write(`${lines.join("\r\n")}\r\n\r\n`);
      if (head.length > 0) upstream.write(head);
      socket.pipe(upstream).pipe(socket);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    // The kernel's own bound (net.core.somaxconn) caps the backlog; Node accepts as fast as connections arrive.
    server.listen({ host: options.host, port: options.port, backlog: 65_535 }, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://${options.host}:${port}`,
    async close() {
      // Upgraded sockets are no longer the server's connections: they are ended here, or close() would wait for them.
      for (const socket of upgraded) socket.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}

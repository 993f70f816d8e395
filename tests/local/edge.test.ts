// The local edge (local/edge.ts) in front of an upstream the test controls: requests and answers pass unchanged (the
// Host the caller used, status, headers, a streamed body), a flood waits in order up to the queue and is refused beyond
// it with 503 and Retry-After, an upstream that is down is a 502 envelope, a caller that leaves cancels its request
// upstream, and a WebSocket goes through as bytes.
import http from "node:http";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type Edge, startEdge } from "../../local/edge.js";

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of open.splice(0).reverse()) await thing.close();
});

async function upstream(handler: http.RequestListener): Promise<{ url: URL; server: http.Server }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  open.push({
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  return { url: new URL(`http://127.0.0.1:${(server.address() as net.AddressInfo).port}`), server };
}

async function edgeFor(url: URL, sizes: { connections?: number; queue?: number } = {}): Promise<Edge> {
  const edge = await startEdge({ upstream: url, host: "127.0.0.1", port: 0, ...sizes });
  open.push(edge);
  return edge;
}

describe("the local edge", () => {
  it("passes a request through unchanged: method, path, the caller's Host, body; the answer's status, headers and streamed body", async () => {
    const seen: { method?: string; url?: string; host?: string; body?: string } = {};
    const { url } = await upstream((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        Object.assign(seen, { method: req.method, url: req.url, host: req.headers.host, body: Buffer.concat(chunks).toString() });
        res.writeHead(201, { "content-type": "application/x-ndjson", "x-request-id": "r1" });
        res.write('{"row":1}\n');
        setTimeout(() => res.end('{"row":2}\n'), 50);
      });
    });
    const edge = await edgeFor(url);
    const response = await fetch(`${edge.url}/run?environment=x`, { method: "POST", body: '{"a":1}', headers: { "content-type": "application/json" } });
    expect(response.status).toBe(201);
    expect(response.headers.get("x-request-id")).toBe("r1");
    expect(await response.text()).toBe('{"row":1}\n{"row":2}\n');
    expect(seen).toEqual({ method: "POST", url: "/run?environment=x", host: new URL(edge.url).host, body: '{"a":1}' });
  });

  it("a flood waits for the upstream's connections in order, and beyond the queue is refused at once: 503 over_capacity with Retry-After", async () => {
    const held: http.ServerResponse[] = [];
    const { url } = await upstream((req, res) => {
      req.resume();
      held.push(res);
    });
    const edge = await edgeFor(url, { connections: 2, queue: 3 });
    const calls = Array.from({ length: 5 }, () => fetch(`${edge.url}/slow`));
    while (held.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    // Two in the upstream, three waiting: the sixth is refused.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const refused = await fetch(`${edge.url}/slow`);
    expect(refused.status).toBe(503);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("over_capacity");
    expect(held).toHaveLength(2);
    // Each answer frees a connection for the next one waiting; every caller is answered, none reset.
    for (let answered = 0; answered < 5; answered++) {
      while (held.length <= answered) await new Promise((resolve) => setTimeout(resolve, 10));
      held[answered]!.end(`done ${answered}`);
    }
    const texts = await Promise.all(calls.map(async (call) => (await call).text()));
    expect(texts.sort()).toEqual(["done 0", "done 1", "done 2", "done 3", "done 4"]);
  });

  it("a request on a kept connection that workerd closes unanswered (its idle close) is sent again on a new one", async () => {
    // A raw upstream that answers the first request of each connection and drops the connection on the second, as a
    // server closing an idle keep-alive connection just as the next request arrives does.
    const bodies: string[] = [];
    const server = net.createServer((socket) => {
      let requests = 0;
      socket.on("data", (data: Buffer) => {
        requests++;
        const text = data.toString();
        if (requests > 1) return socket.destroy();
        bodies.push(text.slice(text.indexOf("\r\n\r\n") + 4));
        socket.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    open.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
    const edge = await edgeFor(new URL(`http://127.0.0.1:${(server.address() as net.AddressInfo).port}`), { connections: 1 });
    const first = await fetch(`${edge.url}/run`, { method: "POST", body: "one" });
    expect([first.status, await first.text()]).toEqual([200, "ok"]);
    const second = await fetch(`${edge.url}/run`, { method: "POST", body: "two" });
    expect([second.status, await second.text()]).toEqual([200, "ok"]);
    expect(bodies).toEqual(["one", "two"]);
  });

  it("an upstream that is not there is a 502 in the error envelope, not a reset", async () => {
    const { url, server } = await upstream(() => {});
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const edge = await edgeFor(url);
    const response = await fetch(`${edge.url}/health`);
    expect(response.status).toBe(502);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("upstream_unreachable");
    expect(body.error.message).toMatch(/ECONNREFUSED/);
  });

  it("a caller that goes away cancels its request upstream", async () => {
    let closed = false;
    const { url } = await upstream((_req, res) => {
      res.on("close", () => {
        closed = true;
      });
    });
    const edge = await edgeFor(url);
    const abort = new AbortController();
    const call = fetch(`${edge.url}/run`, { signal: abort.signal }).catch((error: Error) => error);
    await new Promise((resolve) => setTimeout(resolve, 200));
    abort.abort();
    expect(await call).toBeInstanceOf(Error);
    for (let i = 0; i < 100 && !closed; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(closed).toBe(true);
  });

  it("a WebSocket upgrade goes through as bytes, both ways", async () => {
    const { url, server } = await upstream(() => {});
    server.on("upgrade", (req: http.IncomingMessage, socket: net.Socket) => {
      open.push({ close: async () => void socket.destroy() });
      socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nX-Path: ${req.url}\r\n\r\n`);
      socket.on("data", (data: Buffer) => socket.write(`echo:${data.toString()}`));
    });
    const edge = await edgeFor(url);
    const { port } = new URL(edge.url);
    const socket = net.connect(Number(port), "127.0.0.1");
    open.push({ close: async () => void socket.destroy() });
    let received = "";
    socket.on("data", (data: Buffer) => {
      received += data.toString();
      if (received.includes("\r\n\r\n") && !received.includes("echo:")) socket.write("ping");
    });
    socket.write(`GET /ws HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n`);
    for (let i = 0; i < 100 && !received.includes("echo:ping"); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(received).toMatch(/^HTTP\/1\.1 101 Switching Protocols\r\n/);
    expect(received).toContain("X-Path: /ws");
    expect(received).toContain("echo:ping");
    // Stopping the edge ends an open WebSocket rather than waiting for it.
    const stopped = await Promise.race([edge.close().then(() => "stopped"), new Promise((resolve) => setTimeout(() => resolve("still waiting"), 5_000))]);
    expect(stopped).toBe("stopped");
  });
});

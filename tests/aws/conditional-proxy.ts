// A proxy in front of fauxqs that keeps `If-None-Match: *` on PutObject as S3 and R2 do (fauxqs 1.9.2 ignores it), so
// the store's native conditional path meets a real 412 PreconditionFailed response.
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

const HOP_BY_HOP = new Set(["host", "connection", "content-length", "transfer-encoding", "expect", "keep-alive"]);

function forwardable(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = String(value);
  return out;
}

const PRECONDITION_FAILED =
  '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>PreconditionFailed</Code><Message>At least one of the pre-conditions you specified did not hold</Message><Condition>If-None-Match</Condition></Error>';

export async function startConditionalProxy(target: string): Promise<{ url: string; close(): Promise<void> }> {
  const locks = new Map<string, Promise<unknown>>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", async () => {
      const url = `${target}${request.url}`;
      const headers = forwardable(request.headers);
      const send = async (method = request.method ?? "GET") => {
        const upstream = await fetch(url, { method, headers, ...(method === "GET" || method === "HEAD" ? {} : { body: Buffer.concat(chunks) }) });
        return { status: upstream.status, headers: upstream.headers, body: Buffer.from(await upstream.arrayBuffer()) };
      };
      try {
        let answer: Awaited<ReturnType<typeof send>>;
        if (request.method === "PUT" && request.headers["if-none-match"] === "*") {
          // One conditional writer of a key at a time: the HEAD and the PUT are one step, as in S3.
          const key = request.url ?? "";
          const turn = (locks.get(key) ?? Promise.resolve()).then(async () => {
            const head = await fetch(url, { method: "HEAD", headers });
            if (head.status === 200)
              return { status: 412, headers: new Headers({ "content-type": "application/xml" }), body: Buffer.from(PRECONDITION_FAILED) };
            return send();
          });
          locks.set(
            key,
            turn.catch(() => undefined),
          );
          answer = await turn;
        } else answer = await send();
        answer.headers.forEach((value, name) => {
          if (!HOP_BY_HOP.has(name)) response.setHeader(name, value);
        });
        response.setHeader("content-length", request.method === "HEAD" ? (answer.headers.get("content-length") ?? "0") : String(answer.body.length));
        response.writeHead(answer.status);
        response.end(request.method === "HEAD" ? undefined : answer.body);
      } catch (error) {
        response.writeHead(502).end(String(error));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

// A front for fauxqs that keeps `If-None-Match: *` on PutObject as S3 and R2 do (fauxqs 1.9.2 ignores it), so the store's
// native conditional path meets a real 412 PreconditionFailed; every other request (S3 or SQS) passes through unchanged.
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { serialByKey } from "../../storage/s3.js";

const HOP_BY_HOP = new Set(["host", "connection", "content-length", "transfer-encoding", "expect", "keep-alive"]);

function forwardable(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = String(value);
  return out;
}

const PRECONDITION_FAILED =
  '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>PreconditionFailed</Code><Message>At least one of the pre-conditions you specified did not hold</Message><Condition>If-None-Match</Condition></Error>';

export interface ConditionalFront {
  /** The front's base URL: the endpoint to give the AWS SDK. */
  url: string;
  close(): Promise<void>;
}

type Answer = { status: number; headers: Headers; body: Buffer };

/** Listens on 127.0.0.1:`port` (0 picks a free one) and forwards to `target`. */
export async function startConditionalFront(target: string, port = 0): Promise<ConditionalFront> {
  // One conditional writer of a key at a time: the HEAD and the PUT are one step, as in S3.
  const exclusive = serialByKey();

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", async () => {
      const url = `${target}${request.url}`;
      const headers = forwardable(request.headers);
      const send = async (method = request.method ?? "GET"): Promise<Answer> => {
        const upstream = await fetch(url, { method, headers, ...(method === "GET" || method === "HEAD" ? {} : { body: Buffer.concat(chunks) }) });
        return { status: upstream.status, headers: upstream.headers, body: Buffer.from(await upstream.arrayBuffer()) };
      };
      try {
        let answer: Answer;
        if (request.method === "PUT" && request.headers["if-none-match"] === "*") {
          answer = await exclusive(request.url ?? "", async () => {
            const { "if-none-match": _condition, ...plain } = headers;
            const head = await fetch(url, { method: "HEAD", headers: plain });
            if (head.status === 200)
              return { status: 412, headers: new Headers({ "content-type": "application/xml" }), body: Buffer.from(PRECONDITION_FAILED) };
            return send();
          });
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
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

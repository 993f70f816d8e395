// The MCP servers the fed environment's tests start on 127.0.0.1 with the official SDK: a stateless weather server that
// wants a bearer secret, and a counter server with one MCP session per client (Mcp-Session-Id), which it can forget.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

export const WEATHER_SECRET = "Bearer fed-weather-secret";

function weatherServer(): McpServer {
  const server = new McpServer({ name: "weather", version: "1.0.0" });
  server.registerTool("get_weather", { description: "Weather of a city", inputSchema: { city: z.string() } }, async ({ city }) => {
    const answer = { city, forecast: city === "Paris" ? "rain" : "sun" };
    return { content: [{ type: "text", text: JSON.stringify(answer) }], structuredContent: answer };
  });
  return server;
}

/** A server whose `increment` counts per MCP session: the count shows which session a call landed in. */
function counterServer(): McpServer {
  const server = new McpServer({ name: "counter", version: "1.0.0" });
  let count = 0;
  server.registerTool("increment", { description: "Adds one to this session's count", inputSchema: {} }, async () => {
    count += 1;
    return { content: [{ type: "text", text: JSON.stringify({ count }) }], structuredContent: { count } };
  });
  return server;
}

export interface FedServers {
  weatherUrl: string;
  counterUrl: string;
  /** The counter's MCP sessions: opened (initialize answered), ended by DELETE, and how many calls each took. */
  counter: { opened: string[]; deleted: string[]; calls: Map<string, number>; forget(): void };
  close(): Promise<void>;
}

async function listen(handler: (request: IncomingMessage, response: ServerResponse) => Promise<void>): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    handler(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp` };
}

/**
 * A stateless server on 127.0.0.1 (a server and transport per request, as NeMo Gym's exposure runs) that refuses a
 * request without `Authorization: <secret>`; `seen` hears every request's Authorization header first.
 */
export function statelessServer(make: () => McpServer, secret: string, seen?: (authorization: string | undefined) => void) {
  return listen(async (request, response) => {
    seen?.(request.headers.authorization);
    if (request.headers.authorization !== secret) {
      response.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: "bad credentials" }));
      return;
    }
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    const server = make();
    response.on("close", () => void server.close());
    await server.connect(transport);
    await transport.handleRequest(request, response);
  });
}

export async function startFedServers(): Promise<FedServers> {
  const weather = await statelessServer(weatherServer, WEATHER_SECRET);

  const transports = new Map<string, StreamableHTTPServerTransport>();
  const counter: FedServers["counter"] = { opened: [], deleted: [], calls: new Map(), forget: () => transports.clear() };
  const counting = await listen(async (request, response) => {
    const id = request.headers["mcp-session-id"];
    const sessionId = typeof id === "string" ? id : undefined;
    if (sessionId) counter.calls.set(sessionId, (counter.calls.get(sessionId) ?? 0) + 1);
    let transport = sessionId ? transports.get(sessionId) : undefined;
    if (sessionId && !transport) {
      // The spec's answer to a session the server does not know (expired, or the server restarted).
      response
        .writeHead(404, { "content-type": "application/json" })
        .end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null }));
      return;
    }
    if (!transport) {
      const fresh: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: true,
        onsessioninitialized: (opened) => {
          transports.set(opened, fresh);
          counter.opened.push(opened);
        },
        onsessionclosed: (closed) => {
          transports.delete(closed);
          counter.deleted.push(closed);
        },
      });
      await counterServer().connect(fresh);
      transport = fresh;
    }
    await transport.handleRequest(request, response);
  });

  return {
    weatherUrl: weather.url,
    counterUrl: counting.url,
    counter,
    close: async () => {
      for (const { server } of [weather, counting]) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  };
}

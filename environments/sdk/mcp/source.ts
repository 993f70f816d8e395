// An MCP server as a ToolSource (contracts/tools.ts, contracts/mcp.ts McpToolSourceConfig): its tools/list and tools/call
// over the official SDK's Streamable HTTP client (or, in Node only, a stdio process), within the operation's deadline.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { McpCallAnswer, McpSessionRecords, McpToolSourceConfig } from "../../../contracts/mcp.js";
import type { ToolCall, ToolCallContext, ToolListing, ToolOutcome, ToolSource } from "../../../contracts/tools.js";
import { EdgegymError } from "../../../protocol/index.js";
import { failure } from "../outcome.js";
import { refusedSchemaValidator } from "./validator.js";

/** Reads a secret by name (a Worker's env binding, a process's configuration); undefined when it is not set. */
export type SecretReader = (name: string) => string | undefined;

/** A call's outcome from an MCP tools/call result: the structured content, else the text (JSON when it parses). */
export function answerOutcome(answer: McpCallAnswer, source: string, tool: string): ToolOutcome {
  if (answer.isError) return failure(new EdgegymError(500, "tool_error", `${source}.${tool}: ${answer.text}`));
  if (answer.structured) return { status: 200, body: answer.structured };
  try {
    return { status: 200, body: JSON.parse(answer.text) as unknown };
  } catch {
    return { status: 200, body: answer.text };
  }
}

function headersOf(config: McpToolSourceConfig, headerSecrets: Record<string, string>, secret: SecretReader): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [header, name] of Object.entries(headerSecrets)) {
    const value = secret(name);
    if (value === undefined) throw new Error(`MCP source ${config.name}: secret ${name} (for header ${header}) is not set`);
    headers[header] = value;
  }
  return headers;
}

// Not a literal: a Worker's bundler must not pull node:child_process in; only Node (in-process, tests) loads it.
const STDIO_MODULE = "@modelcontextprotocol/sdk/client/stdio.js";

/** A stdio server's process, started for this connection (local only: a Worker cannot start processes). */
async function stdioTransport(config: McpToolSourceConfig, command: string[], env: Record<string, string> | undefined): Promise<Transport> {
  const [program, ...args] = command;
  if (!program) throw new Error(`MCP source ${config.name}: transport.command is empty`);
  let stdio: typeof import("@modelcontextprotocol/sdk/client/stdio.js");
  try {
    stdio = (await import(STDIO_MODULE)) as typeof stdio;
  } catch {
    throw new Error(`MCP source ${config.name}: a stdio server runs only where edgegym runs in Node (in process), not in a Worker`);
  }
  return new stdio.StdioClientTransport({ command: program, args, env: { ...stdio.getDefaultEnvironment(), ...env }, stderr: "ignore" });
}

/** Where the server is: " (<url>)" or " (<command>)", for error messages. */
function whereOf(config: McpToolSourceConfig, secret: SecretReader): string {
  return config.transport.kind === "http" ? urlOf(config, config.transport, secret) : config.transport.command.join(" ");
}

/** The server's URL: the `urlSecret` binding when it is set, else `url`. */
function urlOf(config: McpToolSourceConfig, where: { url: string; urlSecret?: string }, secret: SecretReader): string {
  const url = (where.urlSecret ? secret(where.urlSecret) : undefined) ?? where.url;
  if (!url) throw new Error(`MCP source ${config.name}: no URL (set the ${where.urlSecret ?? "url"} binding, or transport.url)`);
  return url;
}

/** Each server's listing, made once per configuration (per isolate or process) and forgotten when it failed. */
const listings = new WeakMap<McpToolSourceConfig, Promise<ToolListing[]>>();

/** Who is finding or opening a `per_session` server's MCP session, by edgegym session and source: the others wait. */
const claims = new Map<string, Promise<void>>();

/** How a connection treats the server's MCP session. */
interface Connection {
  /** Resume this MCP session (no initialize). */
  resume?: string;
  /** Called with the new MCP session id once initialize answered (a per_session source records it before its call). */
  opened?: (mcpSessionId: string) => Promise<void>;
  /** End the MCP session when done (a per_session server's throwaway listing connection). */
  terminate?: boolean;
}

/** The server answered 404 to a resumed session: it no longer knows it (its own expiry, a restart), so nothing ran. */
const sessionGone = (error: unknown): boolean => error instanceof StreamableHTTPError && error.code === 404;

/**
 * One MCP server's tools. A `shared` server is stateless: each list and call opens its own connection (initialize,
 * then the request). A `per_session` server gets one MCP session per edgegym session: opened by the session's first
 * call, its id recorded in the session (McpSessionRecords) and resumed by every later call, ended with the session. A
 * tools/call request is sent once: the transport never re-sends a POST, and its SSE reconnection is off, so a call whose
 * answer was lost fails the operation instead of running twice; only a call the server refused as an unknown session
 * (404, so it did not run) is sent again, in a new MCP session. The listing is kept once made.
 */
export function mcpToolSource(config: McpToolSourceConfig, secret: SecretReader, sessions?: McpSessionRecords): ToolSource {
  async function connected<T>(ctx: ToolCallContext, use: (client: Client, timeout: number) => Promise<T>, connection: Connection = {}): Promise<T> {
    const timeout = Math.max(1, Math.min(config.callTimeoutMs, ctx.deadlineAt - Date.now()));
    const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(timeout)]);
    const { transport: where } = config;
    let http: StreamableHTTPClientTransport | undefined;
    let transport: Transport;
    if (where.kind === "http") {
      transport = http = new StreamableHTTPClientTransport(new URL(urlOf(config, where, secret)), {
        requestInit: { headers: headersOf(config, where.headerSecrets ?? {}, secret), signal },
        reconnectionOptions: { maxRetries: 0, initialReconnectionDelay: 1000, maxReconnectionDelay: 1000, reconnectionDelayGrowFactor: 1 },
        ...(connection.resume ? { sessionId: connection.resume } : {}),
      });
    } else {
      transport = await stdioTransport(config, where.command, where.env);
    }
    const client = new Client({ name: `edgegym-${config.name}`, version: "1.0.0" }, { jsonSchemaValidator: refusedSchemaValidator });
    try {
      await client.connect(transport, { signal, timeout });
      if (!connection.resume && http?.sessionId) await connection.opened?.(http.sessionId);
      const result = await use(client, timeout);
      if (connection.terminate) await http?.terminateSession().catch(() => undefined);
      return result;
    } catch (error) {
      if (connection.resume && sessionGone(error)) throw error;
      // The operation's error names the server: a transport or protocol failure reads as this source's, not the SDK's.
      throw new Error(`MCP server ${config.name} (${whereOf(config, secret)}): ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      await client.close().catch(() => undefined);
    }
  }

  /**
   * A call in the edgegym session's own MCP session: resumed when recorded, else opened. Finding or opening it is one
   * caller's at a time (a claim per session and source), so two calls at once never open two MCP sessions.
   */
  async function inSession<T>(ctx: ToolCallContext, use: (client: Client, timeout: number) => Promise<T>, again = true): Promise<T> {
    if (!sessions) throw new Error(`MCP source ${config.name}: per_session needs the session's records (a stateful session)`);
    const key = `${ctx.sessionId}\n${config.name}`;
    for (let held = claims.get(key); held; held = claims.get(key)) await held;
    let release!: () => void;
    const claim = new Promise<void>((resolve) => (release = resolve));
    claims.set(key, claim);
    const known = () => {
      if (claims.get(key) === claim) claims.delete(key);
      release();
    };
    try {
      const recorded = await sessions.get(config.name);
      if (!recorded) return await connected(ctx, use, { opened: (id) => sessions.put(config.name, id).then(known) });
      known();
      try {
        return await connected(ctx, use, { resume: recorded });
      } catch (error) {
        if (!again || !sessionGone(error)) throw error;
        await sessions.delete(config.name);
        return await inSession(ctx, use, false);
      }
    } finally {
      known();
    }
  }

  async function list(ctx: ToolCallContext): Promise<ToolListing[]> {
    // A per_session server's listing opens a session of its own, ended once listed (its tools are the same for every session).
    const tools = await connected(ctx, (client, timeout) => client.listTools(undefined, { signal: ctx.signal, timeout }), {
      terminate: config.sessions === "per_session",
    });
    const allowed = config.tools ? new Set(config.tools) : undefined;
    return tools.tools
      .filter((tool) => !allowed || allowed.has(tool.name))
      .map((tool) => ({
        source: config.name,
        tool: {
          type: "function" as const,
          name: tool.name,
          description: tool.description ?? "",
          parameters: tool.inputSchema as Record<string, unknown>,
          strict: false,
        },
      }));
  }

  return {
    name: config.name,
    list(ctx) {
      let listed = listings.get(config);
      if (!listed) {
        listings.set(config, (listed = list(ctx)));
        listed.catch(() => listings.delete(config));
      }
      return listed;
    },
    async call(call: ToolCall, ctx: ToolCallContext): Promise<ToolOutcome> {
      const args = call.arguments && typeof call.arguments === "object" ? (call.arguments as Record<string, unknown>) : {};
      const send = (client: Client, timeout: number) => client.callTool({ name: call.name, arguments: args }, undefined, { signal: ctx.signal, timeout });
      const result = config.sessions === "per_session" ? await inSession(ctx, send) : await connected(ctx, send);
      const content = Array.isArray(result.content) ? (result.content as { type: string; text?: string }[]) : [];
      const text = content.map((part) => (part.type === "text" ? (part.text ?? "") : "")).join("");
      const structured = result.structuredContent as Record<string, unknown> | undefined;
      return answerOutcome({ isError: result.isError === true, text, ...(structured ? { structured } : {}) }, config.name, call.name);
    },
  };
}

/** Ends a `per_session` server's MCP session (DELETE with its id), best effort: the server's own expiry bounds one it missed. */
export async function endMcpSession(config: McpToolSourceConfig, mcpSessionId: string, secret: SecretReader): Promise<void> {
  const { transport: where } = config;
  if (where.kind !== "http") return;
  try {
    const transport = new StreamableHTTPClientTransport(new URL(urlOf(config, where, secret)), {
      requestInit: { headers: headersOf(config, where.headerSecrets ?? {}, secret), signal: AbortSignal.timeout(Math.min(config.callTimeoutMs, 10_000)) },
      sessionId: mcpSessionId,
    });
    await transport.terminateSession();
  } catch {
    // Best effort, as the comment says: the session's clean-up must not wait on a server that is gone.
  }
}

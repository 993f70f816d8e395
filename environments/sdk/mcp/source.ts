// An MCP server as a ToolSource (contracts/tools.ts, contracts/mcp.ts McpToolSourceConfig): its tools/list and tools/call
// over the official SDK's Streamable HTTP client (or, in Node only, a stdio process), within the operation's deadline.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { McpCallAnswer, McpToolSourceConfig } from "../../../contracts/mcp.js";
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
function whereOf(config: McpToolSourceConfig): string {
  return config.transport.kind === "http" ? config.transport.url : config.transport.command.join(" ");
}

/** Each server's listing, made once per configuration (per isolate or process) and forgotten when it failed. */
const listings = new WeakMap<McpToolSourceConfig, Promise<ToolListing[]>>();

/**
 * One MCP server's tools. Each list and call opens its own connection (initialize, then the request): a `shared` server
 * is stateless. A tools/call request is sent once: the transport never re-sends a POST, and its SSE reconnection is off,
 * so a call whose answer was lost fails the operation instead of running twice. The listing is kept once made.
 */
export function mcpToolSource(config: McpToolSourceConfig, secret: SecretReader): ToolSource {
  async function connected<T>(ctx: ToolCallContext, use: (client: Client, timeout: number) => Promise<T>): Promise<T> {
    const timeout = Math.max(1, Math.min(config.callTimeoutMs, ctx.deadlineAt - Date.now()));
    const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(timeout)]);
    const { transport: where } = config;
    const transport =
      where.kind === "http"
        ? new StreamableHTTPClientTransport(new URL(where.url), {
            requestInit: { headers: headersOf(config, where.headerSecrets ?? {}, secret), signal },
            reconnectionOptions: { maxRetries: 0, initialReconnectionDelay: 1000, maxReconnectionDelay: 1000, reconnectionDelayGrowFactor: 1 },
          })
        : await stdioTransport(config, where.command, where.env);
    const client = new Client({ name: `edgegym-${config.name}`, version: "1.0.0" }, { jsonSchemaValidator: refusedSchemaValidator });
    try {
      await client.connect(transport, { signal, timeout });
      return await use(client, timeout);
    } catch (error) {
      // The operation's error names the server: a transport or protocol failure reads as this source's, not the SDK's.
      throw new Error(`MCP server ${config.name} (${whereOf(config)}): ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      await client.close().catch(() => undefined);
    }
  }

  async function list(ctx: ToolCallContext): Promise<ToolListing[]> {
    const tools = await connected(ctx, (client, timeout) => client.listTools(undefined, { signal: ctx.signal, timeout }));
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
      const result = await connected(ctx, (client, timeout) =>
        client.callTool({ name: call.name, arguments: args }, undefined, { signal: ctx.signal, timeout }),
      );
      const content = Array.isArray(result.content) ? (result.content as { type: string; text?: string }[]) : [];
      const text = content.map((part) => (part.type === "text" ? (part.text ?? "") : "")).join("");
      const structured = result.structuredContent as Record<string, unknown> | undefined;
      return answerOutcome({ isError: result.isError === true, text, ...(structured ? { structured } : {}) }, config.name, call.name);
    },
  };
}

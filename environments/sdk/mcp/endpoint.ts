// POST /mcp: an environment's tools over MCP (stateless Streamable HTTP, JSON answers, as NeMo Gym serves them), each
// call through continueSession like POST /<tool>, so it lands in the token's session (its Durable Object) and /verify
// sees it. The token is checked before the MCP server sees the request; every refusal says what was wrong.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { type CallToolResult, CallToolRequestSchema, ListToolsRequestSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { MCP_TOKEN_HEADER, type McpTokenClaims } from "../../../contracts/mcp.js";
import type { Outcome } from "../../../contracts/rpc.js";
import type { FunctionTool } from "../../../protocol/index.js";
import type { AppContext } from "../answer.js";
import { environmentConfig } from "../config.js";
import { secretReader } from "../context.js";
import { continueSession } from "../run.js";
import { httpOwner, sessionIdOf } from "../session.js";
import type { SimpleEnvironment } from "../types.js";
import { refusedSchemaValidator } from "./validator.js";
import { checkMcpToken } from "./token.js";

/** A refusal before MCP: a JSON-RPC error the SDK's client shows with the HTTP status (401 no token, 403 a bad one). */
function refuse(status: 401 | 403, code: string, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: `${code}: ${message}` }, id: null }), {
    status,
    headers: { "content-type": "application/json" },
  });
}

/** Every tool the environment offers, its own then its MCP servers' (as GET /tools lists them). */
async function offeredTools(c: AppContext, environment: SimpleEnvironment, claims: McpTokenClaims): Promise<FunctionTool[]> {
  const native = [...environment.tools.values()].map((tool) => tool.openai);
  if (!environment.mcpServers) return native;
  const secret = secretReader(c.env);
  // Loaded only by an environment that has MCP servers: the others never run the SDK's client.
  const { mcpFunctionTools } = await import("./sources.js");
  return [...native, ...(await mcpFunctionTools(environment, { sessionId: claims.sid, signal: c.req.raw.signal, secret }))];
}

/** The offered tools the token allows, as MCP lists them. */
function allowedTools(offered: FunctionTool[], claims: McpTokenClaims): Tool[] {
  const tools: Tool[] = [];
  for (const tool of offered) {
    if (claims.tools && !claims.tools.includes(tool.name)) continue;
    const schema = (tool.parameters ?? { type: "object" }) as Tool["inputSchema"];
    tools.push({ name: tool.name, ...(tool.description ? { description: tool.description } : {}), inputSchema: schema });
  }
  return tools;
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

/** A tool's outcome as NeMo Gym's _to_result makes it: a JSON object as text + structuredContent, a string as text. */
export function toCallResult(name: string, outcome: Outcome): CallToolResult {
  const { status, body } = outcome;
  if (status >= 400) {
    const error = (body as { error?: { code?: string; message?: string } } | null)?.error;
    return errorResult(`HTTP ${status} from POST /${name}: ${error?.code ?? "error"}: ${error?.message ?? JSON.stringify(body)}`);
  }
  const text = typeof body === "string" ? body : JSON.stringify(body);
  const structured = body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  return { content: [{ type: "text", text }], ...(structured ? { structuredContent: structured } : {}) };
}

function mcpServer(c: AppContext, environment: SimpleEnvironment, claims: McpTokenClaims): Server {
  const server = new Server({ name: environment.name, version: "1.0.0" }, { capabilities: { tools: {} }, jsonSchemaValidator: refusedSchemaValidator });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: allowedTools(await offeredTools(c, environment, claims), claims) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args } = request.params;
    const offered = environment.tools.has(name) ? undefined : (await offeredTools(c, environment, claims)).map((tool) => tool.name);
    if (offered && !offered.includes(name)) {
      const known = offered.filter((tool) => !claims.tools || claims.tools.includes(tool));
      return errorResult(`mcp_unknown_tool: ${environment.name} has no tool "${name}" (tools: ${known.join(", ") || "none"})`);
    }
    if (claims.tools && !claims.tools.includes(name)) return errorResult(`mcp_tool_not_allowed: tool "${name}" is not allowed for this session`);
    const call = {
      environment,
      env: c.env,
      operation: { kind: "tool" as const, name },
      body: args ?? {},
      owner: httpOwner(c),
      trusted: false,
      signal: c.req.raw.signal,
    };
    return toCallResult(name, await continueSession(call, claims.sid));
  });
  return server;
}

/** Answers one POST /mcp: the token checked, then a fresh stateless MCP server and transport for this request alone. */
export async function answerMcp(c: AppContext, environment: SimpleEnvironment): Promise<Response> {
  const check = await checkMcpToken(environmentConfig(c.env).SESSION_SECRET, environment.name, c.req.header(MCP_TOKEN_HEADER));
  if (!check.ok) return refuse(check.refusal === "mcp_token_missing" ? 401 : 403, check.refusal, check.message);
  const carried = sessionIdOf(c);
  if (carried !== undefined && carried !== check.claims.sid) {
    return refuse(403, "mcp_token_other_session", "the MCP session token belongs to another session than the one this request carries");
  }
  const server = mcpServer(c, environment, check.claims);
  // Stateless (no Mcp-Session-Id) with JSON answers: NeMo Gym's stateless=True, json_response=True.
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(c.req.raw);
  } finally {
    await server.close();
  }
}

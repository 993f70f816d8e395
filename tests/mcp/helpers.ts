// The MCP tests' plumbing: an emulation with two API tokens, a seed through the gateway, and the official SDK's client.
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { PROJECT_ROOT } from "../../local/paths.js";

export const TOKEN_A = "mcp-test-token-a-0123456789abcdefghijkl";
export const TOKEN_B = "mcp-test-token-b-0123456789abcdefghijkl";
export const API_TOKENS = `alice:${TOKEN_A}:admin,bob:${TOKEN_B}:admin`;
const entry = (file: string) => path.relative(PROJECT_ROOT, path.join(import.meta.dirname, file));
export const probeEnvironment = { name: "mcp_probe", entry: entry("probe-environment.ts") };
/** The probe whose sessions (and so their MCP tokens) live 2 seconds. */
export const shortProbeEnvironment = { name: "mcp_probe_short", entry: entry("probe-short-environment.ts"), vars: { SESSION_TTL_SECONDS: "2" } };
/** The environment fed by MCP servers (tests/mcp/fed-definition.ts), given its bindings; `short`: sessions of 2 seconds. */
export const fedEnvironment = (vars: Record<string, string>, short = false) =>
  short
    ? { name: "mcp_fed_short", entry: entry("fed-short-environment.ts"), vars: { ...vars, SESSION_TTL_SECONDS: "2" } }
    : { name: "mcp_fed", entry: entry("fed-environment.ts"), vars };

export interface Seeded {
  status: number;
  sessionId: string;
  // Tests read the answer field by field.
  body: Record<string, unknown> & { mcp: { server_name: string; url_path: string; transport: string; headers: Record<string, string> } };
}

export async function seed(base: string, environment: string, row: unknown, apiToken = TOKEN_A): Promise<Seeded> {
  const response = await fetch(`${base}/v1/environments/${environment}/seed_session`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiToken}`, "content-type": "application/json" },
    body: JSON.stringify(row),
  });
  return { status: response.status, sessionId: response.headers.get("x-session-id") ?? "", body: (await response.json()) as Seeded["body"] };
}

/** The official client, connected to an environment's /mcp through the gateway with these headers. */
export async function mcpClient(base: string, environment: string, headers: Record<string, string>, apiToken = TOKEN_A): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/v1/environments/${environment}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${apiToken}`, ...headers } },
  });
  const client = new Client({ name: "edgegym-tests", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

/** POST /<tool> or /verify through the gateway, in a session. */
export async function post(base: string, environment: string, route: string, body: unknown, sessionId: string, apiToken = TOKEN_A) {
  const response = await fetch(`${base}/v1/environments/${environment}/${route}`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiToken}`, "content-type": "application/json", "x-session-id": sessionId },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

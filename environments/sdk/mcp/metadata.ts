// What /seed_session's answer gains under `mcp` (NeMo Gym's _mint_session_metadata): the server's name, /mcp, and the
// header holding a token bound to this session and environment, expiring with it, optionally narrowed to some tools.
import { MCP_METADATA_KEY, MCP_TOKEN_HEADER, MCP_URL_PATH, type McpServerMetadata } from "../../../contracts/mcp.js";
import type { Outcome } from "../../../contracts/rpc.js";
import type { EnvironmentBindings } from "../bindings.js";
import { environmentConfig } from "../config.js";
import type { SimpleEnvironment } from "../types.js";
import { mintMcpToken } from "./token.js";

export async function mcpMetadata(
  environment: SimpleEnvironment,
  env: EnvironmentBindings,
  sessionId: string,
  seedBody: unknown,
  now = Date.now(),
): Promise<McpServerMetadata> {
  const config = environmentConfig(env);
  const row = seedBody && typeof seedBody === "object" && !Array.isArray(seedBody) ? (seedBody as Record<string, unknown>) : {};
  // A raising hook fails the seed, as in NeMo Gym: no token is minted past a broken hook.
  const tools = environment.mcpAllowedTools?.(row) ?? undefined;
  const exp = Math.floor(now / 1000) + config.SESSION_TTL_SECONDS;
  const token = await mintMcpToken(config.SESSION_SECRET, { sid: sessionId, env: environment.name, ...(tools ? { tools: [...tools] } : {}), exp });
  return { server_name: environment.name, url_path: MCP_URL_PATH, transport: "http", headers: { [MCP_TOKEN_HEADER]: token } };
}

/** A successful seed's answer with the metadata added (kept when the environment's own seed already set `mcp`). */
export async function withMcpMetadata(
  environment: SimpleEnvironment,
  env: EnvironmentBindings,
  sessionId: string,
  seedBody: unknown,
  outcome: Outcome,
): Promise<Outcome> {
  const body = outcome.body;
  if (outcome.status >= 400 || !body || typeof body !== "object" || Array.isArray(body) || MCP_METADATA_KEY in body) return outcome;
  return { ...outcome, body: { ...body, [MCP_METADATA_KEY]: await mcpMetadata(environment, env, sessionId, seedBody) } };
}

// MCP (issue 25): every environment's tools served over MCP per session, MCP servers as tool sources, and the name
// normalization between them. Types and wire constants only. Protocol facts, at NeMo Gym 07d6b0d:
// nemo_gym/base_resources_server.py (MCPServerMetadata, NEMO_GYM_MCP_SESSION_TOKEN_HEADER, normalize_tool_name,
// RESERVED_MCP_TOOL_NAMES) and nemo_gym/mcp_auto_exposure.py (the `mcp` key added to /seed_session's answer, the token
// payload {"sid", "tools"}, stateless Streamable HTTP at /mcp with JSON responses, /verify wrapped to normalize names).

/** The header an MCP client sends its per-session token in (NeMo Gym's name, byte for byte). */
export const MCP_TOKEN_HEADER = "X-NeMo-Gym-Session-Token";
/** The key /seed_session's answer carries the metadata under (NEMO_GYM_MCP_METADATA_KEY). */
export const MCP_METADATA_KEY = "mcp";
/** Where each environment serves MCP, beside /seed_session and /verify. */
export const MCP_URL_PATH = "/mcp";

/**
 * What /seed_session answers under `mcp` (NeMo Gym's MCPServerMetadata): the client connects to `<environment base>` +
 * `url_path` and sends `headers` on every request. `server_name` is the environment's name: tool names become
 * `mcp__<server_name>__<tool>` in the client's transcript.
 */
export interface McpServerMetadata {
  server_name: string;
  url_path: string;
  /** "http": Streamable HTTP (NeMo Gym's only value). */
  transport: "http";
  headers: { [MCP_TOKEN_HEADER]: string };
}

/**
 * What an edgegym MCP token says, signed with the environment's SESSION_SECRET under its own purpose label (as NeMo Gym
 * salts its token, so a session id can never pass as a token nor the reverse). NeMo Gym's token (itsdangerous
 * URLSafeSerializer) holds only sid and tools, signed with a key derived from public names (server_utils.py
 * get_session_middleware_key) and never expiring; edgegym's binds more and expires, and is still an
 * opaque string to a NeMo Gym client, so compatibility holds.
 */
export interface McpTokenClaims {
  /** edgegym's session id: an MCP call lands in that session (its Durable Object), so verify sees it. */
  sid: string;
  /** The environment it was minted for; a token presented to another environment is refused. */
  env: string;
  /** The tools the session may call and list; absent = all (NeMo Gym's mcp_allowed_tools_for_session). */
  tools?: string[];
  /** Epoch seconds; the session's own expiry (SESSION_TTL_SECONDS from the last use is checked by the session too). */
  exp: number;
}

/** Why an MCP request was refused: each an MCP error result with a message a person can act on, never a session leak. */
export type McpRefusal =
  | "mcp_token_missing"
  | "mcp_token_invalid"
  | "mcp_token_expired"
  | "mcp_token_other_environment"
  | "mcp_session_expired"
  | "mcp_tool_not_allowed"
  | "mcp_unknown_tool";

/** A tool name as an MCP-native agent records it. */
export type McpToolName = `mcp__${string}__${string}`;

/**
 * The normalization (NeMo Gym's normalize_tool_name): `mcp__<server>__<tool>` → `<tool>` when `<server>` is this
 * environment's name; any other name passes unchanged. Applied (a) by the agent before a call reaches a ToolSource
 * (contracts/tools.ts) and (b) to the function_call names of a verify request before the verifier sees them, with the
 * emitted names restored in the verify response (mcp_auto_exposure.py _wrap_verify), so records keep what the model
 * wrote and rewards match the plain path. Implemented once, in protocol/mcp-names.ts: the SDK and the agent both need it,
 * and the agent may not import environments/.
 */
export type NormalizeToolName = (name: string, serverName: string) => string;

/**
 * Tool names an MCP-exposed environment may not use: NeMo Gym's RESERVED_MCP_TOOL_NAMES at 07d6b0d plus edgegym's own
 * routes (contracts/names.ts RESERVED_ROUTES); a tool name must match ^[A-Za-z0-9_-]+$ to be exposed.
 */
export type ReservedMcpToolName = "verify" | "seed_session" | "aggregate_metrics" | "mcp" | "tools" | "health";

/** An MCP server an environment (or a remote one, or the configuration alone) takes tools from: a ToolSource. */
export interface McpToolSourceConfig {
  /** lower_snake_case; the source's name (contracts/tools.ts ToolSource.name). */
  name: string;
  transport:
    | {
        kind: "http";
        url: string;
        /**
         * A binding (var or secret) holding the server's URL, which wins over `url` when it is set: the same environment
         * reaches a local server in `npm run dev` and the deployed one in production without a rebuild.
         */
        urlSecret?: string;
        /** Header name → the secret holding its value. */
        headerSecrets?: Record<string, string>;
      }
    /** Local only (npm run dev, tests): a process the emulation starts; never deployed to a Worker. */
    | { kind: "stdio"; command: string[]; env?: Record<string, string> };
  /** Only these of the server's tools are offered; absent = all it lists. */
  tools?: string[];
  /** Per call, cut by the operation's deadline. */
  callTimeoutMs: number;
  /**
   * One MCP session per edgegym session (the server may keep state per session: its Mcp-Session-Id is kept in the
   * session's Durable Object), or one shared (a stateless server such as example_mcp_weather).
   */
  sessions: "per_session" | "shared";
}

/**
 * Where a `per_session` source's MCP session id (its Mcp-Session-Id) is kept, by source name: the edgegym session's
 * Durable Object storage (in process, its session's entry). Written once the server has answered `initialize`; every
 * later call of that edgegym session resumes it; the session's end (its expiry alarm) ends it with DELETE.
 */
export interface McpSessionRecords {
  get(source: string): Promise<string | undefined>;
  put(source: string, mcpSessionId: string): Promise<void>;
  delete(source: string): Promise<void>;
  /** Every recorded source → MCP session id (the session's end terminates them all). */
  all(): Promise<Record<string, string>>;
}

/**
 * How an MCP tools/call result becomes a tool's answer: NeMo Gym returns a JSON object as text + structuredContent and
 * a string as text; edgegym's Outcome body is the structuredContent when present, else the text (JSON-parsed when it
 * parses); `isError: true` → status 500 with the text as the error message, which the model sees.
 */
export interface McpCallAnswer {
  isError: boolean;
  text: string;
  structured?: Record<string, unknown>;
}

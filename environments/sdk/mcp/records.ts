// Where a session keeps its `per_session` MCP servers' session ids (contracts/mcp.ts McpSessionRecords): its Durable
// Object's storage, or its entry in an in-process session map.

import type { McpSessionRecords } from "../../../contracts/mcp.js";

/** A source's MCP session id, under this prefix and the source's name. */
const PREFIX = "mcp:";

/** In a session's Durable Object storage (native and remote sessions alike). */
export function storedMcpSessions(storage: DurableObjectStorage): McpSessionRecords {
  return {
    get: (source) => storage.get<string>(PREFIX + source),
    put: (source, id) => storage.put(PREFIX + source, id),
    delete: async (source) => {
      await storage.delete(PREFIX + source);
    },
    all: async () => {
      const recorded: Record<string, string> = {};
      for (const [key, id] of await storage.list<string>({ prefix: PREFIX })) recorded[key.slice(PREFIX.length)] = id;
      return recorded;
    },
  };
}

/** On an in-process session's entry (its `mcp` field), as in its Durable Object's storage. */
export function heldMcpSessions(session: { mcp?: Record<string, string> }): McpSessionRecords {
  return {
    get: async (source) => session.mcp?.[source],
    put: async (source, id) => {
      session.mcp = { ...session.mcp, [source]: id };
    },
    delete: async (source) => {
      if (session.mcp) delete session.mcp[source];
    },
    all: async () => ({ ...session.mcp }),
  };
}

// The MCP tests' environment fed by MCP servers (not bundled): a native tool, a shared stateless server and a
// per_session one, each found through a binding (urlSecret) so the test's servers on 127.0.0.1 can take any port.
import { defineEnvironment, z } from "../../environments/sdk/index.js";

/** The fed environment under a name (a second copy runs with a short SESSION_TTL_SECONDS, for the session's end). */
export const fed = (name: string) =>
  defineEnvironment({
    name,
    description: "MCP test environment whose tools come from MCP servers",
    tools: {
      echo: {
        description: "Answers with its text.",
        parameters: z.object({ text: z.string() }),
        execute: ({ text }) => ({ echoed: text }),
      },
    },
    mcpServers: [
      {
        name: "weather_mcp",
        transport: { kind: "http", url: "", urlSecret: "WEATHER_MCP_URL", headerSecrets: { authorization: "WEATHER_AUTH" } },
        callTimeoutMs: 5000,
        sessions: "shared",
      },
      { name: "counter_mcp", transport: { kind: "http", url: "", urlSecret: "COUNTER_MCP_URL" }, callTimeoutMs: 5000, sessions: "per_session" },
    ],
    verify: (request) => ({
      reward: 1,
      seen_names: request.response.output.flatMap((item) => (item.type === "function_call" ? [item.name] : [])),
    }),
  });

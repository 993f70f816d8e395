// An MCP server over stdio for tests/mcp/tool-source.test.ts: the official SDK's McpServer with one weather tool.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "weather_stdio", version: "1.0.0" });
server.registerTool("get_forecast", { description: "Forecast of a city, over stdio", inputSchema: { city: z.string() } }, async ({ city }) => {
  // The variable the environment's config sets reaches the process: the answer says which station answered.
  const answer = { city, forecast: city === "Paris" ? "rain" : "sun", station: process.env.WEATHER_STATION ?? "unset" };
  return { content: [{ type: "text", text: JSON.stringify(answer) }], structuredContent: answer };
});
await server.connect(new StdioServerTransport());

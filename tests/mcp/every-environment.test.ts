// Every bundled environment (found on disk as local/environments.ts finds them): a simple one serves its tools over MCP
// (the official client, with a session's token, lists exactly what /tools shows); a gymnasium one, whose actions go
// through /step, has no /mcp and says so. In process: each environment's own Hono app.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { environmentApp } from "../../environments/sdk/app.js";
import { mintMcpToken } from "../../environments/sdk/mcp/token.js";
import type { Environment } from "../../environments/sdk/types.js";
import { discoverEnvironments } from "../../local/environments.js";

const SECRET = "every-environment-test-secret-0123456789";
const env = { SESSION_SECRET: SECRET, SESSION_TTL_SECONDS: "600", LOG_LEVEL: "error" };

async function load(name: string): Promise<Environment> {
  return ((await import(`../../environments/${name}/index.ts`)) as { default: Environment }).default;
}

describe("every bundled environment over MCP", async () => {
  const environments = await Promise.all(discoverEnvironments().map(load));
  const simple = environments.filter((environment) => environment.kind === "simple");
  const gymnasium = environments.filter((environment) => environment.kind === "gymnasium");

  it("loads every environment folder, each named as its folder and of a known kind", () => {
    expect(environments.map((environment) => environment.name)).toEqual(discoverEnvironments());
    expect(environments.length).toBe(simple.length + gymnasium.length);
    expect(simple.length).toBeGreaterThanOrEqual(10);
  });

  it.each(simple.map((environment) => [environment.name, environment] as const))("%s lists its tools as /tools does", async (name, environment) => {
    const app = environmentApp(environment);
    const token = await mintMcpToken(SECRET, { sid: "listing-only", env: name, exp: Math.floor(Date.now() / 1000) + 600 });
    const transport = new StreamableHTTPClientTransport(new URL("http://environment/mcp"), {
      requestInit: { headers: { "X-NeMo-Gym-Session-Token": token } },
      fetch: async (input, init) => app.request(String(input), init, env),
    });
    const client = new Client({ name: "edgegym-tests", version: "1.0.0" });
    await client.connect(transport);
    const listed = (await client.listTools()).tools;
    await client.close();
    const described = (await (await app.request("http://environment/tools", {}, env)).json()) as {
      tools: { name: string; description?: string; parameters: unknown }[];
    };
    expect(listed.map((tool) => [tool.name, tool.description ?? "", tool.inputSchema])).toEqual(
      described.tools.map((tool) => [tool.name, tool.description ?? "", tool.parameters]),
    );
  });

  it.each(gymnasium.map((environment) => [environment.name, environment] as const))(
    "%s (gymnasium) answers POST /mcp with 404: its actions go through /step",
    async (name, environment) => {
      const app = environmentApp(environment);
      const token = await mintMcpToken(SECRET, { sid: "listing-only", env: name, exp: Math.floor(Date.now() / 1000) + 600 });
      const response = await app.request(
        "http://environment/mcp",
        {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "X-NeMo-Gym-Session-Token": token },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
        },
        env,
      );
      expect(response.status).toBe(404);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe("not_found");
    },
  );
});
